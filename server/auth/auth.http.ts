// REST transport for registration, login and sessions (/api/v1/auth, /api/v1/account, /api/v1/qy).
import express from "express";
import { AppError } from "../errors/app-error";
import { handle } from "../http/envelope-response";
import { clearSessionCookie, getAuth, requestMeta, requireAuth, setSessionCookie } from "../http/auth-context";
import { ZSendSmsInput } from "../accounts/accounts.schema";
import * as repo from "../accounts/accounts.repository";
import { getRequestLanguage } from "../http/request-context";
import { changePassword, loginWithPassword, loginWithSms, registerAccount, resetPasswordWithSms } from "./auth.service";
import { endSession } from "./session.service";
import { sendSmsCode } from "./sms";
import { sendBindPhoneCode } from "./phone-binding.service";

export function createAuthRouter() {
  const router = express.Router();

  router.post(
    "/v1/auth/register",
    handle(async (req, res) => {
      // touser rides on every API call's query (SPEC 7): the sharer who brought this registration.
      const { account, session } = await registerAccount(req.body, requestMeta(req), { enterpriseDomain: domainOf(req.body), touser: req.query.touser });
      setSessionCookie(req, res, session);
      return { account };
    }),
  );

  router.post(
    "/v1/auth/login",
    handle(async (req, res) => {
      const { account, session } = await loginWithPassword(req.body, requestMeta(req), { enterpriseDomain: domainOf(req.body) });
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
      if (input.purpose === "login" || input.purpose === "reset_password") {
        // Say so now rather than after the user waits for a code that cannot work.
        if (!(await repo.findAccountForLogin({ phone: input.phone }))) throw new AppError("phone_not_registered");
      }
      return sendSmsCode(input.phone, input.purpose, getRequestLanguage(req));
    }),
  );

  router.post(
    "/v1/auth/login/sms",
    handle(async (req, res) => {
      const { account, session } = await loginWithSms(req.body, requestMeta(req), { enterpriseDomain: domainOf(req.body) });
      setSessionCookie(req, res, session);
      return { account };
    }),
  );

  router.post("/v1/auth/password/reset", handle(async (req) => void (await resetPasswordWithSms(req.body))));

  router.post(
    "/v1/auth/password/change",
    handle(async (req) => {
      const auth = await requireAuth(req);
      await changePassword(auth.account.id, auth.sessionId, req.body);
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

  router.get("/v1/account/me", handle(async (req) => (await requireAuth(req)).account));

  router.get(
    "/v1/qy/info_by_domain",
    handle(async (req) => {
      const enterprise = await repo.findEnterpriseByDomain(String(req.query.domain ?? ""));
      if (!enterprise) throw new AppError("enterprise_not_found");
      const { id: _id, strictPassword, ...shown } = enterprise;
      return { ...shown, strict_password: strictPassword };
    }),
  );

  return router;
}

/** /sso_login sends the enterprise's domain with the form. */
function domainOf(body: unknown): string | undefined {
  const domain = (body as { domain?: unknown } | null)?.domain;
  return typeof domain === "string" && domain ? domain : undefined;
}
