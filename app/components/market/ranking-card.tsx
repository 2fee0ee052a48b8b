// One ranking list (engineer earnings, popularity, language agents, image agents) as a card.
import { AppstoreOutlined, RobotOutlined, TrophyOutlined, UserOutlined } from "@ant-design/icons";
import { Avatar } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../app-link";
import type { TRankingRow } from "../../../server/market/market.schema";
import { formatZ } from "../../../server/money/money-format";

const hrefOf = (r: TRankingRow) =>
  r.targetType === "account" ? `/customer?id=${r.targetId}` : r.targetType === "agent" ? `/detail?id=${r.targetId}&type=agent` : `/detail?id=${r.targetId}`;
const iconOf = (r: TRankingRow) => (r.targetType === "account" ? <UserOutlined /> : r.targetType === "agent" ? <RobotOutlined /> : <AppstoreOutlined />);

export function RankingCard({ list, rows }: { list: string; rows: TRankingRow[] }) {
  const { t } = useTranslation("market");
  return (
    <section className="mk-rank" data-testid={`ranking-${list}`}>
      <h3 className="mk-rank__title">
        <TrophyOutlined /> {t(`ranking.${list}`)}
      </h3>
      {rows.length === 0 ? (
        <p className="mk-rank__empty">{t("ranking.empty")}</p>
      ) : (
        <ol className="mk-rank__list">
          {rows.map((r) => (
            <li key={r.rank}>
              <AppLink to={hrefOf(r)} className="mk-rank__row">
                <span className={`mk-rank__no mk-rank__no--${Math.min(r.rank, 4)}`}>{r.rank}</span>
                <Avatar size={28} shape={r.targetType === "app" ? "square" : "circle"} src={r.avatarUrl || undefined} icon={iconOf(r)} />
                <span className="mk-rank__name">
                  {r.name}
                  {r.subtitle && <small>{r.subtitle}</small>}
                </span>
                {/* Earnings are micro-Z from the ledger; the other lists count heat. */}
                <span className="mk-rank__score">{t(`ranking.score_${list}`, { score: list === "engineer_earnings" ? formatZ(r.score) : r.score })}</span>
              </AppLink>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
