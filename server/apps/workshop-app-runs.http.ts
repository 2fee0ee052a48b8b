// A workshop app's consumer and their runs (/workshop?app=…, and the app's API key): start a run
// within the app's plans, follow it live, speak as the person's role, stop it. The consumer is the
// API key's caller, else the session's account, else the anonymous visitor, as in the app's chat.
// Transport only: the services decide.
import express, { type Request, type Response } from "express";
import { AppError } from "../errors/app-error";
import { handle } from "../http/envelope-response";
import { getRequestLanguage } from "../http/request-context";
import { streamRunEvents } from "../workshops/run-events";
import { getRunView, postRunMessage, stopRun } from "../workshops/runs.service";
import { ZPostRunMessageInput, ZStartRunInput } from "../workshops/workshops.schema";
import { readConsumer } from "./app-chat.http";
import { ZAppQuery } from "./app-consumer.schema";
import { authenticateApiCall } from "./openai-compat/api-caller";
import { listWorkshopAppRuns, startWorkshopAppRun } from "./workshop-app-runs.service";

export const WORKSHOP_APP_RUN_PATHS = {
  runs: "/v2/app/workshop/runs",
  run: "/v2/app/workshop/runs/:id",
  events: "/v2/app/workshop/runs/:id/events",
  messages: "/v2/app/workshop/runs/:id/messages",
  stop: "/v2/app/workshop/runs/:id/stop",
} as const;

/** The caller: an app's API key (its app only), else the page's account or visitor. */
async function callerOf(req: Request, res: Response) {
  if (req.headers.authorization?.startsWith("Bearer ")) {
    const call = await authenticateApiCall(req.headers.authorization);
    return { consumer: call.caller.consumer, source: "api" as const, appId: call.holder.appId };
  }
  return { consumer: await readConsumer(req, res), source: "h5" as const, appId: null };
}

export function createWorkshopAppRunsRouter() {
  const router = express.Router();
  router.post(
    WORKSHOP_APP_RUN_PATHS.runs,
    handle(async (req, res) => {
      const caller = await callerOf(req, res);
      const { app_id } = ZAppQuery.parse({ app_id: req.body?.app_id ?? caller.appId });
      // A key answers for its own app only.
      if (caller.appId && app_id !== caller.appId) throw new AppError("not_found");
      return startWorkshopAppRun(caller.consumer, app_id, caller.source, ZStartRunInput.parse(req.body ?? {}), getRequestLanguage(req));
    }),
  );
  router.get(
    WORKSHOP_APP_RUN_PATHS.runs,
    handle(async (req, res) => {
      const caller = await callerOf(req, res);
      return listWorkshopAppRuns(caller.consumer, ZAppQuery.parse(req.query).app_id, caller.source);
    }),
  );
  router.get(
    WORKSHOP_APP_RUN_PATHS.run,
    handle(async (req, res) => getRunView((await callerOf(req, res)).consumer, req.params.id)),
  );
  router.get(WORKSHOP_APP_RUN_PATHS.events, (req, res) => {
    void streamRunEvents(req, res, async () => getRunView((await callerOf(req, res)).consumer, req.params.id));
  });
  router.post(
    WORKSHOP_APP_RUN_PATHS.messages,
    handle(async (req, res) => postRunMessage((await callerOf(req, res)).consumer, req.params.id, ZPostRunMessageInput.parse(req.body ?? {}).content)),
  );
  router.post(
    WORKSHOP_APP_RUN_PATHS.stop,
    handle(async (req, res) => stopRun((await callerOf(req, res)).consumer, req.params.id)),
  );
  return router;
}
