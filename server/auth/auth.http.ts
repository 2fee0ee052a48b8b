// REST transport for registration, login and sessions (/api/v1/auth, /api/v1/account, /api/v1/qy).
import express from "express";
import { AppError } from "../errors/app-error";
import { handle } from "../http/envelope-response";
import { clearSessionCookie, getAuth, requestMeta, requireAuth, setSessionCookie } from "../http/auth-context";
import {
  changePasswordSchema,
  registerSchema,
  resetPasswordSchema,
  ZBindPhoneInput,
  ZCompleteRegistrationInput,
  ZLoginPasswordInput,
  ZLoginSmsInput,
  ZRegistrationPayment,
  ZSendSmsInput,
} from "../accounts/accounts.schema";
import { findEnterpriseForLogin } from "../accounts/enterprises.service";
import { getRequestLanguage } from "../http/request-context";
import {
  assertPhoneRegistered,
  changePassword,
  findRegistrationEnterprise,
  isStrictPasswordForAccount,
  isStrictPasswordForPhone,
  isStrictPasswordOn,
  loginWithPassword,
  loginWithSms,
  registerAccount,
  resetPasswordWithSms,
} from "./auth.service";
import { endSession } from "./session.service";
import { sendSmsCode } from "./sms";
import { bindPhone, sendBindPhoneCode } from "./phone-binding.service";
import { completeRegistration, createRegistrationOrder, getRegistrationOrder, getRegistrationTerms } from "./paid-registration.service";

export function createAuthRouter() {
  const router = express.Router();

  router.post(
    "/v1/auth/register",
    handle(async (req, res) => {
      // touser (the sharer's account id) rides on every API call's query: who brought this registration.
      const { enterprise, input } = await parseRegistration(req.body);
      const { account, session } = await registerAccount(input, requestMeta(req), { enterprise, touser: req.query.touser });
      setSessionCookie(req, res, session);
      return { account };
    }),
  );

  // Paid registration: an order first, then the page that made it signs in with its claim once paid.
  router.get(
    "/v1/auth/register/terms",
    handle(async (req) => getRegistrationTerms({ enterpriseDomain: domainOf(req.query) })),
  );
  router.post(
    "/v1/auth/register/order",
    handle(async (req) => {
      const { enterprise, input } = await parseRegistration(req.body);
      const { provider } = ZRegistrationPayment.parse(req.body ?? {});
      return createRegistrationOrder(input, provider, requestMeta(req), { enterprise, touser: req.query.touser });
    }),
  );
  router.get(
    "/v1/auth/register/order",
    handle(async (req) => getRegistrationOrder(String(req.query.id ?? ""), String(req.query.claim ?? ""))),
  );
  router.post(
    "/v1/auth/register/complete",
    handle(async (req, res) => {
      const { account, session } = await completeRegistration(ZCompleteRegistrationInput.parse(req.body ?? {}), requestMeta(req));
      setSessionCookie(req, res, session);
      return { account };
    }),
  );

  router.post(
    "/v1/auth/login",
    handle(async (req, res) => {
      const { account, session } = await loginWithPassword(ZLoginPasswordInput.parse(req.body), requestMeta(req), { enterpriseDomain: domainOf(req.body) });
      setSessionCookie(req, res, session);
      return { account };
    }),
  );

  router.post(
    "/v1/auth/sms/send",
    handle(async (req) => {
      const input = ZSendSmsInput.parse(req.body);
      // Binding is for a signed-in account, and a phone another account holds gets no code.
      if (input.purpose === "bind_phone") return sendBindPhoneCode((await requireAuth(req)).account.id, input, getRequestLanguage(req));
      if (input.purpose === "login" || input.purpose === "reset_password") await assertPhoneRegistered(input.phone);
      return sendSmsCode(input.phone, input.purpose, getRequestLanguage(req));
    }),
  );

  router.post(
    "/v1/auth/login/sms",
    handle(async (req, res) => {
      const { account, session } = await loginWithSms(ZLoginSmsInput.parse(req.body), requestMeta(req), { enterpriseDomain: domainOf(req.body) });
      setSessionCookie(req, res, session);
      return { account };
    }),
  );

  router.post(
    "/v1/auth/password/reset",
    handle(async (req) => {
      const strict = await isStrictPasswordForPhone(String(req.body?.phone ?? ""));
      await resetPasswordWithSms(resetPasswordSchema(strict).parse(req.body));
    }),
  );

  router.post(
    "/v1/auth/password/change",
    handle(async (req) => {
      const auth = await requireAuth(req);
      const input = changePasswordSchema(await isStrictPasswordForAccount(auth.account.id)).parse(req.body);
      await changePassword(auth.account.id, auth.sessionId, input);
    }),
  );

  router.post(
    "/v1/auth/logout",
    handle(async (req, res) => {
      const auth = await getAuth(req);
      if (auth) await endSession(auth.sessionId);
      clearSessionCookie(req, res);
    }),
  );

  router.get(
    "/v1/account/me",
    handle(async (req) => (await requireAuth(req)).account),
  );
  router.post(
    "/v1/account/phone",
    handle(async (req) => bindPhone((await requireAuth(req)).account.id, ZBindPhoneInput.parse(req.body), requestMeta(req))),
  );

  router.get(
    "/v1/qy/info_by_domain",
    handle(async (req) => {
      const enterprise = await findEnterpriseForLogin(String(req.query.domain ?? ""));
      if (!enterprise) throw new AppError("enterprise_not_found");
      const { strictPassword, ...shown } = enterprise;
      return { ...shown, strict_password: strictPassword };
    }),
  );

  return router;
}

/** The registration form, held to the password rule of the enterprise it names (the platform's without one). */
async function parseRegistration(body: unknown) {
  const enterprise = await findRegistrationEnterprise(domainOf(body));
  return { enterprise, input: registerSchema(isStrictPasswordOn(enterprise)).parse(body) };
}

/** /sso_login sends the enterprise's domain with the form. */
function domainOf(body: unknown): string | undefined {
  const domain = (body as { domain?: unknown } | null)?.domain;
  return typeof domain === "string" && domain ? domain : undefined;
}
