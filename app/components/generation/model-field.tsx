// The model (version) choice of the drawing and video screens, the models loaded once per screen,
// and what the screen says while there is none: who adds one, and where.
import { ClusterOutlined } from "@ant-design/icons";
import { Alert, Button, Result, Select, Skeleton } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppLink } from "../app-link";
import { errorText } from "../../lib/api-client";
import { formatZ } from "../../../server/money/money-format";
import { generationApi, type TMediaModel } from "./generation-client";

type TKind = "image" | "video";
/** The /model page's type filter that lists models of each kind. */
const MODEL_FILTER: Record<TKind, number> = { image: 4, video: 5 };

export function useMediaModels(kind: TKind) {
  const [state, setState] = useState<{ models: TMediaModel[] | null; error: string | null }>({ models: null, error: null });
  useEffect(() => {
    let live = true;
    generationApi.listModels(kind).then(
      (models) => live && setState({ models, error: null }),
      (err: unknown) => live && setState({ models: [], error: errorText(err) }),
    );
    return () => {
      live = false;
    };
  }, [kind]);
  return state;
}

/** The unit price as the select shows it: per picture or per second. */
export function useUnitPriceText() {
  const { t } = useTranslation("generation");
  return (model: TMediaModel) =>
    t(model.kind === "video" ? "price.per_second" : "price.per_picture", { price: t("common:money.z", { amount: formatZ(model.unitPriceMicro) }) });
}

export function ModelSelect({ models, value, onChange }: { models: TMediaModel[]; value?: string; onChange?: (key: string) => void }) {
  const unitPrice = useUnitPriceText();
  return (
    <Select
      value={value}
      onChange={onChange}
      data-testid="generation-model"
      showSearch
      filterOption={(input, option) => Boolean(option?.name.toLowerCase().includes(input.trim().toLowerCase()))}
      options={models.map((m) => ({
        value: m.key,
        name: m.name,
        label: (
          <span className="generation-model-option">
            <span className="generation-model-option__name">{m.name}</span>
            <span className="generation-model-option__price">{unitPrice(m)}</span>
          </span>
        ),
      }))}
    />
  );
}

/** The screen's body while models load, when they could not be loaded, or when there are none. */
export function ModelsGate({
  kind,
  models,
  error,
  children,
}: {
  kind: TKind;
  models: TMediaModel[] | null;
  error: string | null;
  children: () => JSX.Element;
}) {
  const { t } = useTranslation("generation");
  if (!models) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (error) return <Alert type="error" showIcon message={t("models.load_failed")} description={error} data-testid="generation-models-error" />;
  if (!models.length)
    return (
      <Result
        icon={<ClusterOutlined />}
        title={t(`models.none_title.${kind}`)}
        subTitle={<span data-testid="generation-no-model">{t(`models.none_hint.${kind}`)}</span>}
        extra={
          <AppLink to={`/model?type=${MODEL_FILTER[kind]}`}>
            <Button>{t("models.open_catalogue")}</Button>
          </AppLink>
        }
      />
    );
  return children();
}
