// The account's edition, time left and balance: /upgrade and /mobi/upgrade show the same card.
import { CrownOutlined, GiftOutlined, WalletOutlined } from "@ant-design/icons";
import { Card, Descriptions, Tag, Typography } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { TMembershipView } from "../../../server/money/editions/editions.service";
import { formatZ, formatZBalance } from "../../../server/money/money-format";
import { formatDuration } from "./duration";
import { uiLocale } from "../../i18n/config";

/** Micro-Z for the membership pages' prices (the one formatter: server/money/money-format.ts). */
export const yuan = (micro: number) => formatZ(micro);

export function MembershipSummary({ membership, extra }: { membership: TMembershipView; extra?: ReactNode }) {
  const { t, i18n } = useTranslation(["editions", "common"]);
  const date = (iso: string) => new Date(iso).toLocaleDateString(uiLocale(i18n.language));
  const editionName = (k: string) => t(`editions.${k}`, { ns: "common" });
  return (
    <Card title={t("current.title")} extra={extra} data-testid="membership">
      <Descriptions column={{ xs: 1, sm: 1, md: 3 }} size="small">
        <Descriptions.Item label={<CrownOutlined />}>
          <Tag color={membership.edition === "basic" ? "default" : "gold"} data-testid="membership-edition" data-edition={membership.edition}>
            {editionName(membership.edition)}
          </Tag>
          {membership.expires_at ? (
            <span data-testid="membership-left">
              {t("current.left", { duration: formatDuration((k, o) => t(k, o), membership.days_left) })} ·{" "}
              {t("current.expires", { date: date(membership.expires_at) })}
            </span>
          ) : (
            <span className="app-form__muted">{t("current.basic")}</span>
          )}
        </Descriptions.Item>
        <Descriptions.Item
          label={
            <>
              <WalletOutlined /> {t("wallet.coins")}
            </>
          }
        >
          <span data-testid="wallet-coins">{t("money.z", { ns: "common", amount: formatZBalance(membership.wallet.spendable) })}</span>
        </Descriptions.Item>
        <Descriptions.Item
          label={
            <>
              <GiftOutlined /> {t("wallet.gift")}
            </>
          }
        >
          <span data-testid="wallet-gift">{t("money.z", { ns: "common", amount: formatZBalance(membership.wallet.gift) })}</span>
        </Descriptions.Item>
      </Descriptions>
      {membership.lapsed && (
        <Typography.Paragraph type="warning" data-testid="membership-lapsed" style={{ marginBottom: 0 }}>
          {t("current.lapsed", { edition: editionName(membership.lapsed) })}
        </Typography.Paragraph>
      )}
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0, marginTop: 8 }}>
        {t("wallet.gift_note")}
      </Typography.Paragraph>
    </Card>
  );
}
