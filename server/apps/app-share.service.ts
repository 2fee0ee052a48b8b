// What a sharer needs to share an app (share panel, poster): its name, icon and introduction.
// The owner shares their app in any state; anyone else only an app served by its link (on the
// shelf, or waiting for review under the "listing" policy: app-review-policy.ts), so an app that
// is not served reveals nothing: not_found.
import { AppError } from "../errors/app-error";
import type { TSessionAccount } from "../accounts/accounts.schema";
import { findAppForShare } from "./app-share.repository";
import { isServedByLink } from "../app-review-policy";

export type TShareTarget = { id: string; name: string; icon_url: string; introduction: string; is_owner: boolean };

export async function getShareTarget(actor: Pick<TSessionAccount, "id">, appId: string): Promise<TShareTarget> {
  const app = appId && appId.length <= 40 ? await findAppForShare(appId) : null;
  const isOwner = app?.ownerAccountId === actor.id;
  if (!app || (!isOwner && !isServedByLink(app))) throw new AppError("not_found");
  return { id: app.id, name: app.name, icon_url: app.iconUrl, introduction: app.introduction, is_owner: isOwner };
}
