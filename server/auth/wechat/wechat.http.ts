// REST transport for WeChat QR login and binding. The start and callback are browser navigations
// as well as API calls, so their refusals become redirects to a page that can show them.
import express, { type Request } from "express";
import { mapError } from "../../errors/map-error";
import { handle, sendError, sendOk } from "../../http/envelope-response";
import { requestMeta, requireAuth, setSessionCookie } from "../../http/auth-context";
import { ZWechatStartInput } from "./wechat.schema";
import { buildWechatErrorRedirect, finishWechatCallback, getRefusalPurpose, startWechatLogin, unbindWechat } from "./wechat.service";

export function createWechatRouter() {
  const router = express.Router();

  // ?go=1 answers with the redirect itself, for a plain link on the login page.
  router.get("/v1/auth/wechat/start", (req, res) => {
    const purpose = req.query.purpose === "bind" ? "bind" : "login";
    const go = req.query.go === "1";
    const start = async () => {
      const auth = purpose === "bind" ? await requireAuth(req) : null;
      const input = ZWechatStartInput.parse({ purpose: req.query.purpose, redirect: req.query.redirect });
      return startWechatLogin(input, { accountId: auth?.account.id, requestOrigin: getRequestOrigin(req) });
    };
    start().then(
      ({ url }) => (go ? res.redirect(302, url) : sendOk(res, { url })),
      (err) => (go ? res.redirect(302, buildWechatErrorRedirect(purpose, mapError(err).code)) : sendError(req, res, err)),
    );
  });

  router.get("/v1/auth/wechat/callback", (req, res) => {
    finishWechatCallback({ code: req.query.code, state: req.query.state }, requestMeta(req)).then(
      ({ session, redirect }) => {
        if (session) setSessionCookie(req, res, session);
        res.redirect(302, redirect);
      },
      (err) => res.redirect(302, buildWechatErrorRedirect(getRefusalPurpose(err), mapError(err).code)),
    );
  });

  router.post(
    "/v1/account/wechat/unbind",
    handle(async (req) => {
      const auth = await requireAuth(req);
      await unbindWechat(auth.account.id);
      return {};
    }),
  );

  return router;
}

/** Honours X-Forwarded-Proto/Host when the app trusts its proxy (server/http/app.ts). */
function getRequestOrigin(req: Request) {
  return `${req.protocol}://${req.get("host") ?? "localhost"}`;
}
