// My figures' avatar trainings on /figureTrain: not ordered (with the order button, or why not yet),
// training since the order's date (about 7 working days), trained, or failed with its reason. An
// order is confirmed with its price first: held when ordered, charged when the provider delivers,
// released when it fails. The person's consent clip comes first: providers train no one without it.
import { ExperimentOutlined, UserOutlined } from "@ant-design/icons";
import { App, Button, List } from "antd";
import { useTranslation } from "react-i18next";
import { uiLocale } from "../../i18n/config";
import { useMutation } from "../../lib/use-mutation";
import { AVATAR_TRAINING_PRICE_MICRO, TRAINING_MIN_MS } from "../../../server/digital/digital.schema";
import { formatZ } from "../../../server/money/money-format";
import { ConsentUpload } from "./consent-upload";
import { FigureStateTag } from "./figure-state-tag";
import { figuresApi, type TFigureView } from "./figures-client";

/** The working days an avatar training usually takes at its provider. */
export const TRAINING_WORKING_DAYS = 7;

function TrainingStatus({ figure }: { figure: TFigureView }) {
  const { t, i18n } = useTranslation("figures");
  const { t: te } = useTranslation("errors");
  const training = figure.training;
  const date = (iso: string) => new Intl.DateTimeFormat(uiLocale(i18n.language), { dateStyle: "medium" }).format(new Date(iso));
  const seconds = figure.check.figure?.facts.durationMs;
  let text: string;
  if (training.state === "training")
    text = training.orderedAt ? t("train.training_since", { date: date(training.orderedAt), days: TRAINING_WORKING_DAYS }) : t("train.training");
  else if (training.state === "trained") text = t(figure.purchased ? "train.trained_purchased" : "train.trained");
  else if (figure.purchased) text = t("train.purchased");
  else if (training.state === "failed")
    text = t("train.failed", { reason: te(training.errorCode ?? "training_failed", { defaultValue: te("training_failed") }) });
  else if (figure.state === "checking" || figure.state === "check_failed") text = t("train.not_checked");
  else if (training.tooShort) text = t("train.too_short", { min: TRAINING_MIN_MS / 60_000, value: ((seconds ?? 0) / 60_000).toFixed(1) });
  else text = t("train.not_ordered");
  return (
    <span className={`figures-train__status figures-train__status--${training.state}`} data-testid="training-status" data-training={training.state}>
      {text}
    </span>
  );
}

export function TrainingList({
  figures,
  highlight,
  onOrdered,
}: {
  figures: TFigureView[];
  highlight: string | null;
  onOrdered: (figure: TFigureView) => void;
}) {
  const { t } = useTranslation("figures");
  const { modal, message } = App.useApp();
  const price = t("common:money.z", { amount: formatZ(AVATAR_TRAINING_PRICE_MICRO) });
  const order = useMutation(async (id: string) => {
    const { figure } = await figuresApi.orderTraining(id);
    void message.success(t("train.ordered", { name: figure.name }));
    onOrdered(figure);
  });
  const confirm = (figure: TFigureView) =>
    modal.confirm({
      title: t("train.confirm_title", { name: figure.name }),
      icon: <ExperimentOutlined />,
      content: (
        <div data-testid="training-confirm">
          <p className="figures-train__price" data-testid="training-price">
            {t("train.confirm_price", { price })}
          </p>
          <p>{t("train.confirm_note", { days: TRAINING_WORKING_DAYS })}</p>
        </div>
      ),
      okText: t("train.confirm_ok"),
      okButtonProps: { "data-testid": "training-confirm-ok" } as never,
      onOk: () => order.run(figure.id),
    });
  return (
    <List
      className="figures-train"
      dataSource={figures}
      data-testid="training-list"
      renderItem={(figure) => (
        <List.Item
          className={`figures-train__item${figure.id === highlight ? " figures-train__item--chosen" : ""}`}
          data-testid="training-item"
          data-id={figure.id}
          actions={
            figure.training.canOrder && figure.training.consentUrl
              ? [
                  <Button
                    key="order"
                    type="primary"
                    size="small"
                    loading={order.busyKey === figure.id}
                    onClick={() => confirm(figure)}
                    data-testid="training-order"
                  >
                    {t(figure.training.state === "failed" ? "train.order_again" : "train.order")}
                  </Button>,
                ]
              : []
          }
        >
          <List.Item.Meta
            avatar={
              <div className="figures-train__thumb figures-checker">
                {figure.posterUrl ? <img src={figure.posterUrl} alt="" /> : <UserOutlined aria-hidden />}
              </div>
            }
            title={
              <span className="figures-train__title">
                <span className="figures-train__name">{figure.name}</span> <FigureStateTag figure={figure} />
              </span>
            }
            description={
              <>
                <TrainingStatus figure={figure} />
                {figure.training.canOrder && <ConsentUpload figure={figure} onSaved={onOrdered} />}
              </>
            }
          />
        </List.Item>
      )}
    />
  );
}
