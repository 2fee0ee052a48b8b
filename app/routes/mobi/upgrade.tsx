import { CalendarOutlined, CrownOutlined, DesktopOutlined, HddOutlined, WalletOutlined } from "@ant-design/icons";
import { Alert } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ContactCard } from "../../components/site/contact-card";
import { EditionCards, EditionCompareTable } from "../../components/site/edition-plans";
import { MEMBERSHIP_DAYS } from "../../components/site/editions";
import { IconBadge, type TTone } from "../../components/site/icon-card";
import { pageMeta } from "../../components/site/page-meta";
import "../../styles/site-pages.css";

export const handle = { i18n: ["mobi", "site"] };

export const meta = pageMeta("Zelin · Editions");

const NOTES: { key: string; icon: ReactNode; tone: TTone }[] = [
  { key: "term", icon: <CalendarOutlined />, tone: "indigo" },
  { key: "prepaid", icon: <WalletOutlined />, tone: "emerald" },
  { key: "org", icon: <CrownOutlined />, tone: "amber" },
  { key: "private", icon: <HddOutlined />, tone: "slate" },
];

export default function MobiUpgrade() {
  const { t } = useTranslation("mobi");
  const vars = { short: MEMBERSHIP_DAYS[0], long: MEMBERSHIP_DAYS[1] };
  return (
    <div className="sp-page mp" data-testid="mobi-upgrade">
      <section className="mp-hero">
        <span className="mp-hero__eyebrow">{t("upgrade.hero.eyebrow")}</span>
        <h1>{t("upgrade.hero.title")}</h1>
        <p>{t("upgrade.hero.lead")}</p>
      </section>

      <Alert type="info" showIcon icon={<DesktopOutlined />} title={t("upgrade.pc.title")} description={t("upgrade.pc.desc")} />

      <EditionCards />

      <section className="mp-card">
        <h2>{t("upgrade.compare.title")}</h2>
        <p className="mp-card__lead">{t("upgrade.compare.lead")}</p>
        <EditionCompareTable />
      </section>

      <section className="mp-card">
        <h2>{t("upgrade.notes.title")}</h2>
        <ul className="mp-list">
          {NOTES.map((n) => (
            <li key={n.key}>
              <IconBadge icon={n.icon} tone={n.tone} small />
              <div>
                <b>{t(`upgrade.notes.items.${n.key}.title`)}</b>
                <span>{t(`upgrade.notes.items.${n.key}.desc`, vars)}</span>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <ContactCard title={t("upgrade.contact.title")} desc={t("upgrade.contact.desc")} />
    </div>
  );
}
