// /figureTrain: my figures' avatar trainings, and ordering one for a ready figure with enough filmed
// talk. A trained figure can move its lips to new speech in renders; an untrained one plays its
// filmed loop. ?id=<figure> marks the figure a card came from.
import { ArrowLeftOutlined } from "@ant-design/icons";
import { useSearchParams } from "@remix-run/react";
import { Alert, Button, Empty, Skeleton } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { figuresApi } from "../../components/figures/figures-client";
import { TrainingList } from "../../components/figures/training-list";
import { useLoadedList } from "../../lib/use-loaded-list";
import { AVATAR_TRAINING_PRICE_MICRO, TRAINING_MIN_MS } from "../../../server/digital/digital.schema";
import { formatZ } from "../../../server/money/money-format";
import "../../components/figures/figures.css";

export const handle = { i18n: ["figures"] };

export default function FigureTrainPage() {
  const { t } = useTranslation("figures");
  const [params] = useSearchParams();
  const { items: figures, error, load } = useLoadedList(figuresApi.list);
  const price = t("common:money.z", { amount: formatZ(AVATAR_TRAINING_PRICE_MICRO) });
  return (
    <div className="figures-page" data-testid="figure-train-page">
      <div className="figures-page__head">
        <h1 className="console__title">{t("title.train")}</h1>
        <AppLink to="/digital">
          <Button icon={<ArrowLeftOutlined />}>{t("list.back")}</Button>
        </AppLink>
      </div>
      <p className="console__hint">{t("intro.train", { price, minutes: TRAINING_MIN_MS / 60_000 })}</p>
      {error && <Alert type="error" showIcon message={error} className="figures-page__error" />}
      {figures === null ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : figures.length === 0 ? (
        <Empty description={t("train.empty")} data-testid="training-empty">
          <AppLink to="/Createdigital">
            <Button type="primary">{t("list.create")}</Button>
          </AppLink>
        </Empty>
      ) : (
        <div className="figures-panel">
          <TrainingList figures={figures} highlight={params.get("id")} onOrdered={() => void load()} />
        </div>
      )}
    </div>
  );
}
