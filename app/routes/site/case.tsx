import {
  BankOutlined,
  BarChartOutlined,
  BulbOutlined,
  CodeOutlined,
  DatabaseOutlined,
  EditOutlined,
  ReadOutlined,
  ShoppingOutlined,
  VideoCameraOutlined,
} from "@ant-design/icons";
import { Button, Segmented, Tag } from "antd";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { CtaBand } from "../../components/site/cta-band";
import { CardGrid, IconCard } from "../../components/site/icon-card";
import { PageHero } from "../../components/site/page-hero";
import { SectionHeading } from "../../components/site/section-heading";
import { pageMeta } from "../../components/site/page-meta";
import "../../styles/site-pages.css";

export const handle = { i18n: ["site"] };

export const meta = pageMeta("Zelin · Customer cases");

type TGroup = "enterprise" | "education" | "creator";
type TCase = { key: string; group: TGroup; icon: ReactNode; cover: string; tags: string[] };

const CASES: TCase[] = [
  { key: "retail", group: "enterprise", icon: <ShoppingOutlined />, cover: "cyan", tags: ["wecom", "h5", "knowledge"] },
  { key: "finance", group: "enterprise", icon: <BankOutlined />, cover: "indigo", tags: ["dingtalk", "sub_accounts", "database", "private_key"] },
  { key: "media", group: "enterprise", icon: <VideoCameraOutlined />, cover: "rose", tags: ["workshop", "digital", "lipsync", "feishu"] },
  { key: "school", group: "education", icon: <ReadOutlined />, cover: "violet", tags: ["exam", "sub_accounts", "h5"] },
  { key: "writer", group: "creator", icon: <EditOutlined />, cover: "amber", tags: ["market", "distribution", "wechat"] },
  { key: "engineer", group: "creator", icon: <CodeOutlined />, cover: "sky", tags: ["tasks", "api", "knowledge"] },
];

const GROUPS = ["all", "enterprise", "education", "creator"] as const;
const PRACTICES = [
  { key: "start_small", icon: <BulbOutlined />, tone: "amber" as const },
  { key: "knowledge", icon: <DatabaseOutlined />, tone: "cyan" as const },
  { key: "iterate", icon: <BarChartOutlined />, tone: "indigo" as const },
];

function CaseCard({ c }: { c: TCase }) {
  const { t } = useTranslation("site");
  const base = `case.items.${c.key}`;
  return (
    <article className="sp-case" data-testid={`case-${c.key}`}>
      <div className={`sp-case__cover cover-${c.cover}`}>
        <span className="sp-case__industry">{t(`${base}.industry`)}</span>
        {c.icon}
      </div>
      <div className="sp-case__body">
        <div>
          <span className="sp-case__label">{t(`${base}.org`)}</span>
          <h3>{t(`${base}.title`)}</h3>
        </div>
        <div>
          <span className="sp-case__label">{t("case.labels.challenge")}</span>
          <p>{t(`${base}.challenge`)}</p>
        </div>
        <div>
          <span className="sp-case__label">{t("case.labels.solution")}</span>
          <p>{t(`${base}.solution`)}</p>
        </div>
        <div className="sp-tags" aria-label={t("case.labels.built_with")}>
          {c.tags.map((tag) => (
            <Tag key={tag} color="geekblue" variant="filled">
              {t(`case.tags.${tag}`)}
            </Tag>
          ))}
        </div>
        <div className="sp-case__result">
          <span className="sp-case__label">{t("case.labels.result")}</span>
          {t(`${base}.result`)}
        </div>
      </div>
    </article>
  );
}

export default function CasePage() {
  const { t } = useTranslation("site");
  const [group, setGroup] = useState<(typeof GROUPS)[number]>("all");
  const shown = group === "all" ? CASES : CASES.filter((c) => c.group === group);
  return (
    <div className="sp-page" data-testid="page-case">
      <PageHero eyebrow={t("case.hero.eyebrow")} title={t("case.hero.title")} lead={t("case.hero.lead")} />

      <section className="section">
        <div className="sp-filters">
          <Segmented
            value={group}
            onChange={(v) => setGroup(v as (typeof GROUPS)[number])}
            options={GROUPS.map((g) => ({ value: g, label: t(`case.groups.${g}`) }))}
          />
        </div>
        <CardGrid cols={3}>
          {shown.map((c) => (
            <CaseCard key={c.key} c={c} />
          ))}
        </CardGrid>
        <p className="sp-plans__note">{t("case.disclaimer")}</p>
      </section>

      <div className="sp-band">
        <section className="section">
          <SectionHeading center eyebrow={t("case.practices.eyebrow")} title={t("case.practices.title")} lead={t("case.practices.lead")} />
          <CardGrid cols={3}>
            {PRACTICES.map((p) => (
              <IconCard
                key={p.key}
                icon={p.icon}
                tone={p.tone}
                title={t(`case.practices.items.${p.key}.title`)}
                desc={t(`case.practices.items.${p.key}.desc`)}
              />
            ))}
          </CardGrid>
        </section>
      </div>

      <div className="sp-cta-wrap">
        <CtaBand
          title={t("case.cta.title")}
          lead={t("case.cta.lead")}
          actions={
            <>
              <AppLink to="/scheme">
                <Button size="large" className="sp-btn-light">
                  {t("case.cta.primary")}
                </Button>
              </AppLink>
              <AppLink to="/partner">
                <Button size="large" ghost className="sp-btn-ghost">
                  {t("case.cta.secondary")}
                </Button>
              </AppLink>
            </>
          }
        />
      </div>
    </div>
  );
}
