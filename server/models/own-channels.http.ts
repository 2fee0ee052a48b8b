// REST of the private key service: an account's own channels, under /api/v1/account/channels.
// Mounted by server/http/api-router.ts; every route acts for the signed-in account only.
import express, { type Request } from "express";
import { requireAuth } from "../http/auth-context";
import { handle } from "../http/envelope-response";
import type { TChannelProbe } from "./channel-probe";
import { ZCreateOwnChannelInput, ZUpdateChannelInput } from "./models.schema";
import {
  createOwnChannel,
  deleteOwnChannel,
  disableOwnChannel,
  enableOwnChannel,
  listOwnChannels,
  testOwnChannel,
  updateOwnChannel,
} from "./own-channels.service";

/** A handler that runs for the caller's account (110003 when not signed in). */
function own(fn: (accountId: string, req: Request) => Promise<unknown>) {
  return handle(async (req) => fn((await requireAuth(req)).account.id, req));
}

/** probeMediaChannel: how the test button checks a media provider's channel (channel-probe.ts). */
export function createOwnChannelsRouter(deps: { probeMediaChannel: TChannelProbe }) {
  const router = express.Router();
  router.get(
    "/v1/account/channels",
    own((accountId) => listOwnChannels(accountId)),
  );
  router.post(
    "/v1/account/channels",
    own((accountId, req) => createOwnChannel(accountId, ZCreateOwnChannelInput.parse(req.body))),
  );
  router.patch(
    "/v1/account/channels/:id",
    own((accountId, req) => updateOwnChannel(accountId, req.params.id, ZUpdateChannelInput.parse(req.body))),
  );
  router.delete(
    "/v1/account/channels/:id",
    own((accountId, req) => deleteOwnChannel(accountId, req.params.id)),
  );
  router.post(
    "/v1/account/channels/:id/test",
    own((accountId, req) => testOwnChannel(accountId, req.params.id, deps.probeMediaChannel)),
  );
  router.post(
    "/v1/account/channels/:id/enable",
    own((accountId, req) => enableOwnChannel(accountId, req.params.id)),
  );
  router.post(
    "/v1/account/channels/:id/disable",
    own((accountId, req) => disableOwnChannel(accountId, req.params.id)),
  );
  return router;
}
