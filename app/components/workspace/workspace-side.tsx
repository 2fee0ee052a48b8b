// The workspace's side column: the balance with the money pages, and the console's usual places.
import {
  AppstoreOutlined,
  CommentOutlined,
  MessageOutlined,
  ReadOutlined,
  RobotOutlined,
  SettingOutlined,
  ShareAltOutlined,
  ShopOutlined,
} from "@ant-design/icons";
import { Card, Statistic } from "antd";
import { useTranslation } from "react-i18next";
import type { TWorkspaceOverview } from "../../../server/workspace/workspace.schema";
import { formatZ, formatZBalance } from "../../../server/money/money-format";
import { AppLink } from "../app-link";

export function BalanceCard({ balance, incomeMicro }: Pick<TWorkspaceOverview, "balance" | "incomeMicro">) {
  const { t } = useTranslation("workspace");
  const z = (amount: string) => t("money.z", { ns: "common", amount });
  return (
    <Card title={t("balance.title")} data-testid="workspace-balance">
      <Statistic title={t("balance.available")} value={z(formatZBalance(balance.availableMicro))} valueStyle={{ fontSize: "1.6rem" }} />
      <p className="console__hint workspace__money-note">
        {balance.giftMicro > 0 && <span>{t("balance.gift", { amount: z(formatZBalance(balance.giftMicro)) })}</span>}
        {incomeMicro > 0 && <span>{t("balance.earned", { amount: z(formatZ(incomeMicro)) })}</span>}
      </p>
      <nav className="workspace__money-links">
        <AppLink to="/income">{t("balance.income")}</AppLink>
        <AppLink to="/consumption">{t("balance.consumption")}</AppLink>
        <AppLink to="/withdrawal">{t("balance.withdrawal")}</AppLink>
        <AppLink to="/upgrade">{t("balance.upgrade")}</AppLink>
      </nav>
    </Card>
  );
}

const LINKS = [
  { to: "/creator", key: "creator", icon: <RobotOutlined /> },
  { to: "/train", key: "train", icon: <ReadOutlined /> },
  { to: "/my_app", key: "my_app", icon: <AppstoreOutlined /> },
  { to: "/dialogue", key: "dialogue", icon: <MessageOutlined /> },
  { to: "/create_bot", key: "create_bot", icon: <CommentOutlined /> },
  { to: "/index", key: "market", icon: <ShopOutlined /> },
  { to: "/distribution", key: "distribution", icon: <ShareAltOutlined /> },
  { to: "/setting", key: "setting", icon: <SettingOutlined /> },
] as const;

export function QuickLinks() {
  const { t } = useTranslation("workspace");
  return (
    <Card title={t("links.title")} data-testid="workspace-links">
      <nav className="workspace__links">
        {LINKS.map((l) => (
          <AppLink key={l.key} to={l.to} className="workspace__link" data-testid={`quick-${l.key}`}>
            {l.icon}
            <span>{t(`links.${l.key}`)}</span>
          </AppLink>
        ))}
      </nav>
    </Card>
  );
}
