// A developer's runs of their workshop's draft, from the run view (/workshop?id=…): start one,
// follow it live, speak as the person's role, stop it. Session only: another account's run reads
// as not found. Transport only: runs.service decides.
import express from "express";
import { requireAuth } from "../http/auth-context";
import { handle } from "../http/envelope-response";
import { getRequestLanguage } from "../http/request-context";
import { streamRunEvents } from "./run-events";
import { getRunView, postRunMessage, startDebugRun, stopRun } from "./runs.service";
import { ZPostRunMessageInput, ZStartRunInput, ZWorkshopIdInput } from "./workshops.schema";

export const WORKSHOP_RUN_PATHS = {
  start: "/v1/workshop/runs",
  run: "/v1/workshop/runs/:id",
  events: "/v1/workshop/runs/:id/events",
  messages: "/v1/workshop/runs/:id/messages",
  stop: "/v1/workshop/runs/:id/stop",
} as const;

const viewerOf = async (req: express.Request) => ({ account: (await requireAuth(req)).account, visitorId: null });

export function createWorkshopRunsRouter() {
  const router = express.Router();
  router.post(
    WORKSHOP_RUN_PATHS.start,
    handle(async (req) => {
      const { account } = await requireAuth(req);
      const { id } = ZWorkshopIdInput.parse({ id: req.body?.workshop_id });
      return startDebugRun(account, id, ZStartRunInput.parse(req.body ?? {}), getRequestLanguage(req));
    }),
  );
  router.get(
    WORKSHOP_RUN_PATHS.run,
    handle(async (req) => getRunView(await viewerOf(req), req.params.id)),
  );
  router.get(WORKSHOP_RUN_PATHS.events, (req, res) => {
    void streamRunEvents(req, res, async () => getRunView(await viewerOf(req), req.params.id));
  });
  router.post(
    WORKSHOP_RUN_PATHS.messages,
    handle(async (req) => postRunMessage(await viewerOf(req), req.params.id, ZPostRunMessageInput.parse(req.body ?? {}).content)),
  );
  router.post(
    WORKSHOP_RUN_PATHS.stop,
    handle(async (req) => stopRun(await viewerOf(req), req.params.id)),
  );
  return router;
}
