// What a statement line says, in the reader's language: shared by the pages and the xlsx export.
// Strings in the "statements" namespace.
import type { TFunction } from "i18next";
import type { TStatementLine } from "./statements.schema";

export function describeLine(line: TStatementLine, t: TFunction): string {
  const parts: string[] = [];
  if (line.app_name) parts.push(t("detail.app", { name: line.app_name }));
  if (line.agent_name) parts.push(t("detail.agent", { name: line.agent_name }));
  if (line.edition)
    parts.push(
      line.days
        ? t("detail.edition_days", { edition: t(`editions.${line.edition}`, { defaultValue: line.edition }), days: line.days })
        : t(`editions.${line.edition}`, { defaultValue: line.edition }),
    );
  if (line.chars !== null) parts.push(t("detail.chars", { count: line.chars }));
  if (line.what) parts.push(t(`what.${line.what}`, { defaultValue: line.what }));
  if (line.withdrawal_state) parts.push(t(`withdrawal_states.${line.withdrawal_state}`));
  if (line.gift_micro !== 0 && line.gift_micro !== line.amount_micro) parts.push(t("detail.partly_gift"));
  if (line.gift_micro !== 0 && line.gift_micro === line.amount_micro) parts.push(t("detail.gift"));
  return parts.join(" · ");
}
