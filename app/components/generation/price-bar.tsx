// The foot of the drawing and video forms: what the job will cost before it is started, and the
// button that starts it.
import { ThunderboltOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { useTranslation } from "react-i18next";
import { formatZ } from "../../../server/money/money-format";

export function PriceBar({ priceMicro, detail, busy, disabled }: { priceMicro: number | null; detail?: string; busy: boolean; disabled?: boolean }) {
  const { t } = useTranslation("generation");
  return (
    <div className="generation-price">
      <div className="generation-price__text">
        <span className="generation-price__label">{t("price.label")}</span>
        <strong data-testid="generation-price" data-micro={priceMicro ?? ""}>
          {priceMicro === null ? "-" : t("common:money.z", { amount: formatZ(priceMicro) })}
        </strong>
        {detail && <span className="generation-price__detail">{detail}</span>}
      </div>
      <Button type="primary" htmlType="submit" icon={<ThunderboltOutlined />} loading={busy} disabled={disabled} data-testid="generation-submit">
        {t("actions.generate")}
      </Button>
    </div>
  );
}
