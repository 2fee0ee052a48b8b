import { TeamOutlined } from "@ant-design/icons";
import { Tag } from "antd";
import { useTranslation } from "react-i18next";

const BARS = [38, 52, 45, 70, 62, 84, 76, 92, 68, 88, 96, 80];

/** A picture of the enterprise console: staff usage, quotas and roles. */
export function ConsoleMock() {
  const { t } = useTranslation("home");
  const staff = [
    { key: "s1", role: "admin", color: "geekblue" },
    { key: "s2", role: "staff", color: "cyan" },
    { key: "s3", role: "staff", color: "cyan" },
  ] as const;
  return (
    <div className="lp-console" role="img" aria-label={t("enterprise.mock.aria")}>
      <div className="lp-console__head">
        <span>
          <TeamOutlined style={{ color: "#4f46e5", marginRight: 8 }} />
          {t("enterprise.mock.title")}
        </span>
        <Tag color="green" style={{ marginInlineEnd: 0 }}>
          {t("enterprise.mock.domain")}
        </Tag>
      </div>
      <div className="lp-console__kpis">
        {(["staff", "apps", "chats"] as const).map((k) => (
          <div key={k} className="lp-console__kpi">
            <small>{t(`enterprise.mock.kpi_${k}`)}</small>
            <strong>{t(`enterprise.mock.kpi_${k}_value`)}</strong>
          </div>
        ))}
      </div>
      <div className="lp-console__chart" aria-hidden="true">
        {BARS.map((h, i) => (
          <i key={i} style={{ height: `${h}%` }} />
        ))}
      </div>
      <div className="lp-console__rows">
        {staff.map((s) => (
          <div key={s.key} className="lp-console__row">
            <span className="lp-console__who">{t(`enterprise.mock.${s.key}_initial`)}</span>
            <span className="lp-console__name">{t(`enterprise.mock.${s.key}_name`)}</span>
            <Tag color={s.color}>{t(`enterprise.mock.role_${s.role}`)}</Tag>
          </div>
        ))}
      </div>
    </div>
  );
}
