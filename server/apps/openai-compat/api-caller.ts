// Who calls with an API app's bearer key (the /v1 API and the native SSE endpoint): the key's app,
// acting as its owner (the key is the owner's credential), within the key's requests per minute.
// A wrong or revoked key answers not_logged_in (401); a removed app no_permission (403).
import { AppError } from "../../errors/app-error";
import { readBearer, resolveApiKey, type TKeyHolder } from "../api-keys.service";
import type { TAppCaller } from "../app-turn.service";
import * as repo from "../app-uses.repository";
import { defaultRateStore, hitRateLimit } from "../rate-limit";

export type TApiCall = { holder: TKeyHolder; caller: TAppCaller };

/** The bearer key's holder and caller, after the rate limit (rate_limited carries retry_after seconds). */
export async function authenticateApiCall(authorization: string | undefined, now = new Date()): Promise<TApiCall> {
  const holder = await resolveApiKey(readBearer(authorization), now);
  if (!holder) throw new AppError("not_logged_in");
  const rate = await hitRateLimit(defaultRateStore(), `apikey:${holder.apiKeyId}`, holder.ratePerMinute, 60_000, now.getTime());
  if (!rate.allowed) throw new AppError("rate_limited", { data: { retry_after: rate.retryAfterSeconds } });
  // An app removed by an administrator stops answering its key, whatever the owner may do.
  if (holder.appState === "removed") throw new AppError("no_permission");
  const owner = await repo.findOwnerActor(holder.ownerAccountId);
  if (!owner) throw new AppError("not_logged_in");
  return { holder, caller: { consumer: { account: owner, visitorId: null }, source: "api", apiKeyId: holder.apiKeyId } };
}
