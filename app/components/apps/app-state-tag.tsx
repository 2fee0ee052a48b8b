// An app's lifecycle state (server/apps/app-lifecycle.ts) as a coloured tag.
import { Tag } from "antd";
import { useTranslation } from "react-i18next";
import type { TAppState } from "../../../server/apps/apps.schema";

const COLORS: Record<TAppState, string> = { under_review: "processing", on_shelf: "success", off_shelf: "default", removed: "error" };

export function AppStateTag({ state }: { state: TAppState }) {
  const { t } = useTranslation("apps");
  return (
    <Tag color={COLORS[state]} data-testid="app-state" data-state={state}>
      {t(`state.${state}`)}
    </Tag>
  );
}
