// "Sell" on my figure's card: a dialog that offers the figure to other creators at a price in Z
// (1 to 10,000, whole fen), says what the seller receives after the platform's 10%, and withdraws
// it when it is on sale. The price is checked by the schema the server uses.
import { ShopOutlined } from "@ant-design/icons";
import { App, Button, InputNumber, Modal, Tooltip } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useMutation } from "../../lib/use-mutation";
import { FIGURE_PRICE_MAX_MICRO, FIGURE_PRICE_MIN_MICRO, ZFigurePriceMicro } from "../../../server/digital/figure-sale.schema";
import { MICRO, PLATFORM_FEE_PERCENT, splitSale } from "../../../server/money/money.constants";
import { formatZ, yuanToMicro } from "../../../server/money/money-format";
import { figuresApi, type TFigureView } from "./figures-client";

export function FigureSellButton({ figure, onChanged }: { figure: TFigureView; onChanged: () => void }) {
  const { t } = useTranslation("figures");
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [yuan, setYuan] = useState<number | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);
  const onSale = figure.salePriceMicro !== null;

  const save = useMutation(async (priceMicro: number | null) => {
    await figuresApi.setSale(figure.id, priceMicro);
    void message.success(priceMicro === null ? t("sale.withdrawn") : t("sale.offered", { price: t("common:money.z", { amount: formatZ(priceMicro) }) }));
    setOpen(false);
    onChanged();
  });

  const show = () => {
    setYuan(onSale ? figure.salePriceMicro! / MICRO : null);
    setInvalid(null);
    setOpen(true);
  };
  const submit = () => {
    const parsed = ZFigurePriceMicro.safeParse(yuan === null ? undefined : yuanToMicro(yuan));
    if (!parsed.success) return setInvalid(t(parsed.error.issues[0].message));
    void save.run(parsed.data);
  };
  const micro = yuan === null ? null : yuanToMicro(yuan);
  const sellerGets = micro === null ? null : splitSale(micro, null).developer;

  return (
    <>
      <Tooltip title={onSale ? t("sale.on_sale_edit") : t("sale.sell")}>
        <Button
          type="text"
          size="small"
          icon={<ShopOutlined />}
          aria-label={t("sale.sell")}
          onClick={show}
          className="figures-card__sell"
          data-testid="figure-sell"
        />
      </Tooltip>
      <Modal
        open={open}
        title={t("sale.title", { name: figure.name })}
        onCancel={() => setOpen(false)}
        destroyOnHidden
        footer={[
          onSale && (
            <Button key="withdraw" danger loading={save.busy && save.busyKey === null} onClick={() => void save.run(null)} data-testid="figure-sale-withdraw">
              {t("sale.withdraw")}
            </Button>
          ),
          <Button key="cancel" onClick={() => setOpen(false)}>
            {t("sale.cancel")}
          </Button>,
          <Button key="save" type="primary" loading={save.busy && save.busyKey !== null} onClick={submit} data-testid="figure-sale-save">
            {onSale ? t("sale.save") : t("sale.offer")}
          </Button>,
        ].filter(Boolean)}
      >
        <div className="figures-sale" data-testid="figure-sale-dialog">
          <p className="console__hint">{t("sale.note", { fee: PLATFORM_FEE_PERCENT })}</p>
          <label className="figures-field__label" htmlFor="figure-sale-price">
            {t("sale.price")}
          </label>
          <InputNumber<number>
            id="figure-sale-price"
            min={FIGURE_PRICE_MIN_MICRO / MICRO}
            max={FIGURE_PRICE_MAX_MICRO / MICRO}
            precision={2}
            step={1}
            inputMode="decimal"
            value={yuan}
            onChange={(v) => (setYuan(v), setInvalid(null))}
            onPressEnter={submit}
            suffix="Z"
            style={{ width: "100%", maxWidth: 240 }}
            status={invalid ? "error" : undefined}
            data-testid="figure-sale-price"
          />
          {invalid ? (
            <div className="figures-field__error" role="alert">
              {invalid}
            </div>
          ) : (
            <div className="figures-field__hint">
              {sellerGets !== null && sellerGets > 0
                ? t("sale.you_get", { amount: t("common:money.z", { amount: formatZ(sellerGets) }) })
                : t("sale.price_hint")}
            </div>
          )}
        </div>
      </Modal>
    </>
  );
}
