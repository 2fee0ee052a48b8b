// Who may open an app: its owner in any state, anyone else an app served by its link, a BOT app in
// the chats its owner deployed it to, a sub-account app only for staff of the owner's enterprise;
// and whose an app's dialogue is.
import { AppError } from "../errors/app-error";
import { isServedByLink } from "../app-review-policy";
import type { TConsumer, TUseSource } from "./app-entitlements.service";
import * as repo from "./app-uses.repository";

/** Loads an app a consumer may open, else not_found (or not_logged_in / no_permission for sub-account apps). */
export async function loadOpenableApp(appId: string | undefined, consumer: TConsumer, source?: TUseSource) {
  const app = appId ? await repo.findAppForTurn(appId) : null;
  if (!app) throw new AppError("not_found");
  assertMayOpen(app, consumer, source);
  return app;
}

/**
 * The owner opens their app in any state. Anyone else only an app served by its link (on the
 * shelf, or waiting for review under the "listing" policy: app-review-policy.ts; private apps open
 * by id: the link is the secret); a sub-account app only for signed-in staff of the owner's enterprise.
 */
export function assertMayOpen(app: repo.TAppForTurn, consumer: TConsumer, source?: TUseSource) {
  if (consumer.account?.id === app.ownerAccountId) return;
  // A BOT app answers in the chats its owner deployed it to, listed or not, until an administrator removes it.
  if (source === "bot" && app.type === "bot") {
    if (app.state === "removed") throw new AppError("not_found");
    return;
  }
  if (!isServedByLink(app)) throw new AppError("not_found");
  if (app.mode === "sub_account") {
    if (!consumer.account) throw new AppError("not_logged_in");
    const enterpriseId = app.enterpriseId ?? app.owner.enterpriseId;
    if (!enterpriseId || consumer.account.enterpriseId !== enterpriseId) throw new AppError("no_permission");
  }
}

/** The consumer's own app dialogue (an account's, or an anonymous visitor's), else not_found. */
export function assertConsumerOwns<T extends { accountId: string | null; visitorId: string | null }>(row: T | null | undefined, consumer: TConsumer): T {
  if (!row) throw new AppError("not_found");
  if (consumer.account ? row.accountId === consumer.account.id : row.accountId === null && row.visitorId !== null && row.visitorId === consumer.visitorId)
    return row;
  throw new AppError("not_found");
}
