// The figure shop on /digital: other creators' figures for sale, a page at a time, each with its
// keyed still, name, kind, seller and price, and Buy, which asks first with the price and the
// balance. A bought figure becomes one of mine (a copy of the seller's prepared files); the shop
// then marks it bought. A price that changed meanwhile is refused by the server: the page reloads
// so the new price shows before anything is paid.
import { CheckOutlined, ShoppingCartOutlined, UserOutlined, WalletOutlined } from "@ant-design/icons";
import { Alert, App, Button, Empty, Pagination, Skeleton, Tag } from "antd";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, errorText } from "../../lib/api-client";
import { useMutation } from "../../lib/use-mutation";
import type { TFigureShopItem, TFigureShopPage } from "../../../server/digital/figure-sale.schema";
import { ERROR_CODES } from "../../../server/errors/codes";
import { formatZ, formatZBalance } from "../../../server/money/money-format";
import { FiguresCardFrame } from "./figures-card-frame";
import { figuresApi } from "./figures-client";

/** Refusals that mean the page shows an offer that changed: it is loaded again. */
const STALE_OFFER: number[] = [ERROR_CODES.figure_price_changed.status, ERROR_CODES.figure_not_for_sale.status];

function ShopCard({ item, busy, onBuy }: { item: TFigureShopItem; busy: boolean; onBuy: (item: TFigureShopItem) => void }) {
  const { t } = useTranslation("figures");
  const price = t("common:money.z", { amount: formatZ(item.priceMicro) });
  const action = item.boughtFigureId ? (
    <span key="bought" className="figures-shop__bought" data-testid="shop-bought">
      <CheckOutlined /> {t("shop.bought_tag")}
    </span>
  ) : (
    <Button key="buy" type="link" size="small" icon={<ShoppingCartOutlined />} loading={busy} onClick={() => onBuy(item)} data-testid="shop-buy">
      {t("shop.buy")}
    </Button>
  );
  return (
    <FiguresCardFrame
      testId="shop-card"
      id={item.id}
      orientation={item.orientation}
      checker
      picture={
        item.posterUrl ? (
          <img src={item.posterUrl} alt={item.name} className="figures-card__poster" loading="lazy" />
        ) : (
          <UserOutlined className="figures-card__placeholder" aria-hidden />
        )
      }
      name={item.name}
      meta={
        <>
          <strong className="figures-shop__price" data-testid="shop-price">
            {price}
          </strong>
          {item.kind === "trained" && <Tag color="gold">{t("state.trained")}</Tag>}
          <span>{t(`orientation.${item.orientation}`)}</span>
          <span className="figures-shop__seller" title={item.sellerNickname}>
            {t("shop.seller", { name: item.sellerNickname })}
          </span>
        </>
      }
      actions={[action]}
    />
  );
}

export function FigureShop({ onBought }: { onBought: () => void }) {
  const { t } = useTranslation("figures");
  const { modal, message } = App.useApp();
  const [page, setPage] = useState(1);
  const [shop, setShop] = useState<TFigureShopPage | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async (at: number) => {
    try {
      setShop(await figuresApi.shop(at));
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }, []);
  useEffect(() => void load(page), [load, page]);

  const buy = useMutation(
    async (id: string, priceMicro: number, name: string) => {
      await figuresApi.buy(id, priceMicro);
      void message.success(t("shop.bought", { name }));
      onBought();
      await load(page);
    },
    {
      onError: (err) => {
        // The seller changed the price (or withdrew it): show what is for sale now.
        if (err instanceof ApiError && STALE_OFFER.includes(err.status)) void load(page);
      },
    },
  );

  const confirm = (item: TFigureShopItem) => {
    const price = t("common:money.z", { amount: formatZ(item.priceMicro) });
    const balance = shop?.balanceMicro ?? 0;
    modal.confirm({
      title: t("shop.confirm_title", { name: item.name }),
      icon: <ShoppingCartOutlined />,
      content: (
        <div data-testid="shop-confirm">
          <p className="figures-train__price">{t("shop.confirm_price", { price })}</p>
          <p>
            <WalletOutlined /> {t("shop.balance", { amount: t("common:money.z", { amount: formatZBalance(balance) }) })}
          </p>
          {balance < item.priceMicro && <Alert type="warning" showIcon message={t("shop.balance_short")} className="figures-shop__short" />}
          <p className="console__hint">{t("shop.confirm_note")}</p>
        </div>
      ),
      okText: t("shop.confirm_ok", { price }),
      cancelText: t("sale.cancel"),
      okButtonProps: { "data-testid": "shop-confirm-ok" } as never,
      onOk: () => buy.run(item.id, item.priceMicro, item.name),
    });
  };

  return (
    <section aria-label={t("shop.title")} data-testid="figure-shop">
      <p className="console__hint">{t("shop.intro")}</p>
      {error && <Alert type="error" showIcon message={error} className="figures-page__error" />}
      {shop === null ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : shop.items.length === 0 ? (
        <Empty className="figures-empty" description={t("shop.empty")} data-testid="shop-empty" />
      ) : (
        <>
          <ul className="figures-grid" data-testid="shop-grid">
            {shop.items.map((item) => (
              <li key={item.id} className="figures-grid__cell">
                <ShopCard item={item} busy={buy.busyKey === item.id} onBuy={confirm} />
              </li>
            ))}
          </ul>
          <Pagination
            className="figures-shop__pages"
            current={shop.page}
            pageSize={shop.pageSize}
            total={shop.total}
            onChange={setPage}
            showSizeChanger={false}
            hideOnSinglePage
            size="small"
          />
        </>
      )}
    </section>
  );
}
