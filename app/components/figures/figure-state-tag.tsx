// A figure's state as a coloured tag, with "preparing" while its keyed still is made anew,
// "trained" for a figure a provider trained and "purchased" for one bought from another creator.
import { Tag } from "antd";
import { useTranslation } from "react-i18next";
import type { TFigureState } from "../../../server/digital/figures.schema";
import type { TFigureView } from "./figures-client";

const COLORS: Record<TFigureState, string> = {
  checking: "processing",
  check_failed: "error",
  ready: "success",
  training: "purple",
  train_failed: "warning",
};

export function FigureStateTag({ figure }: { figure: Pick<TFigureView, "state" | "stage" | "kind" | "purchased"> }) {
  const { t } = useTranslation("figures");
  const preparing = figure.state !== "checking" && figure.stage === "preparing";
  return (
    <span className="figures-tags">
      <Tag color={preparing ? "processing" : COLORS[figure.state]} data-testid="figure-state" data-state={figure.state}>
        {preparing ? t("state.preparing") : t(`state.${figure.state}`)}
      </Tag>
      {figure.kind === "trained" && figure.state !== "training" && <Tag color="gold">{t("state.trained")}</Tag>}
      {figure.purchased && (
        <Tag color="cyan" data-testid="figure-purchased">
          {t("state.purchased")}
        </Tag>
      )}
    </span>
  );
}
