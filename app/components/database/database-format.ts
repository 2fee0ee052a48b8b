// Small shared pieces of the database training set pages.
import type { TFunction } from "i18next";
import type { TDatabaseSetView, TVerifyFailure } from "../../../server/knowledge/database/database-sets.schema";

export const STATE_COLORS: Record<TDatabaseSetView["state"], string> = {
  training: "processing",
  done: "success",
  failed: "error",
  stopped: "default",
  disabled: "default",
};

/** Why verification failed, in the page's language (t of the database namespace). */
export function describeFailure(t: TFunction, failure: TVerifyFailure | null | undefined) {
  if (!failure) return "";
  return t(`verify_errors.${failure.reason}`, { ...(failure.params ?? {}), defaultValue: t("verify_errors.server_error", { message: failure.reason }) });
}

export function connectionOf(set: Pick<TDatabaseSetView, "username" | "host" | "port" | "database">) {
  return `${set.username}@${set.host}:${set.port}/${set.database}`;
}
