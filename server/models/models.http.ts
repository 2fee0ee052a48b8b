// REST of the model gateway: the public list of enabled models, and the platform administrators'
// models and channels. Mounted by server/http/api-router.ts with router.use(createModelsRouter(...)).
import express, { type Request } from "express";
import { AppError } from "../errors/app-error";
import { handle } from "../http/envelope-response";
import { isPlatformAdmin } from "../http/request-context";
import type { TChannelProbe } from "./channel-probe";
import { createChannel, deleteChannel, disableChannel, enableChannel, listChannels, testChannel, updateChannel } from "./channels.service";
import { createModel, deleteModel, listAllModels, listPublicModels, updateModel } from "./models.service";
import { ZCreateChannelInput, ZCreateModelInput, ZUpdateChannelInput, ZUpdateModelInput } from "./models.schema";

async function assertPlatformAdmin(req: Request) {
  if (!(await isPlatformAdmin(req))) throw new AppError("no_permission");
}

/** An admin handler: the permission check comes before anything reads the body or the database. */
function admin(fn: (req: Request) => Promise<unknown>) {
  return handle(async (req) => {
    await assertPlatformAdmin(req);
    return fn(req);
  });
}

/** probeMediaChannel: how the test button checks a media provider's channel (channel-probe.ts). */
export function createModelsRouter(deps: { probeMediaChannel: TChannelProbe }) {
  const router = express.Router();

  router.get(
    "/v1/models",
    handle(() => listPublicModels()),
  );

  router.get(
    "/v1/admin/models",
    admin(() => listAllModels()),
  );
  router.post(
    "/v1/admin/models",
    admin((req) => createModel(ZCreateModelInput.parse(req.body))),
  );
  router.patch(
    "/v1/admin/models/:id",
    admin((req) => updateModel(req.params.id, ZUpdateModelInput.parse(req.body))),
  );
  router.delete(
    "/v1/admin/models/:id",
    admin((req) => deleteModel(req.params.id)),
  );

  router.get(
    "/v1/admin/channels",
    admin(() => listChannels()),
  );
  router.post(
    "/v1/admin/channels",
    admin((req) => createChannel(ZCreateChannelInput.parse(req.body))),
  );
  router.patch(
    "/v1/admin/channels/:id",
    admin((req) => updateChannel(req.params.id, ZUpdateChannelInput.parse(req.body))),
  );
  router.delete(
    "/v1/admin/channels/:id",
    admin((req) => deleteChannel(req.params.id)),
  );
  router.post(
    "/v1/admin/channels/:id/test",
    admin((req) => testChannel(req.params.id, deps.probeMediaChannel)),
  );
  router.post(
    "/v1/admin/channels/:id/enable",
    admin((req) => enableChannel(req.params.id)),
  );
  router.post(
    "/v1/admin/channels/:id/disable",
    admin((req) => disableChannel(req.params.id)),
  );

  return router;
}
