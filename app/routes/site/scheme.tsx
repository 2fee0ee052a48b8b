import {
  ApiOutlined,
  BookOutlined,
  CheckOutlined,
  CloudOutlined,
  CustomerServiceOutlined,
  FireOutlined,
  HddOutlined,
  ReadOutlined,
  ShopOutlined,
  SkinOutlined,
} from "@ant-design/icons";
import { Button, Tag } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { ContactCard } from "../../components/site/contact-card";
import { CtaBand } from "../../components/site/cta-band";
import { CardGrid, IconBadge, IconCard, type TTone } from "../../components/site/icon-card";
import { PageHero } from "../../components/site/page-hero";
import { SectionHeading } from "../../components/site/section-heading";
import { pageMeta } from "../../components/site/page-meta";
import "../../styles/site-pages.css";

export const handle = { i18n: ["site"] };

export const meta = pageMeta("Zelin · Solutions");

type TSolution = { key: string; icon: ReactNode; tone: TTone; caps: string[] };

const SOLUTIONS: TSolution[] = [
  { key: "service", icon: <CustomerServiceOutlined />, tone: "cyan", caps: ["bots", "qa", "fallback", "insight"] },
  { key: "knowledge", icon: <BookOutlined />, tone: "indigo", caps: ["documents", "database", "internal", "permissions"] },
  { key: "marketing", icon: <FireOutlined />, tone: "rose", caps: ["digital", "lipsync", "image", "share"] },
  { key: "education", icon: <ReadOutlined />, tone: "violet", caps: ["exam", "tutor", "accounts", "school"] },
  { key: "creator", icon: <ShopOutlined />, tone: "amber", caps: ["market", "plans", "distribution", "withdraw"] },
  { key: "developer", icon: <ApiOutlined />, tone: "emerald", caps: ["api", "channels", "workshop", "keys"] },
];

const LAYERS = [
  { key: "channels", items: ["h5", "api", "wechat", "wecom", "dingtalk", "feishu"] },
  { key: "apps", items: ["chat", "qa", "workshop", "digital"] },
  { key: "agents", items: ["role", "variables", "plugins", "network", "documents"] },
  { key: "knowledge", items: ["qa", "text", "database", "voice", "media"] },
  { key: "models", items: ["llm", "image", "video", "speech"] },
] as const;

const DEPLOY = [
  { key: "cloud", icon: <CloudOutlined />, tone: "sky" as const },
  { key: "brand", icon: <SkinOutlined />, tone: "violet" as const },
  { key: "private", icon: <HddOutlined />, tone: "slate" as const },
];

const TRUST = ["residency", "review", "labelling", "keys"] as const;

function SolutionBlock({ s }: { s: TSolution }) {
  const { t } = useTranslation("site");
  const base = `scheme.solutions.${s.key}`;
  return (
    <article className="sp-solution" id={`scheme-${s.key}`} data-testid={`solution-${s.key}`}>
      <div className="sp-solution__head">
        <IconBadge icon={s.icon} tone={s.tone} />
        <h3>{t(`${base}.title`)}</h3>
        <p>{t(`${base}.desc`)}</p>
        <div className="sp-solution__meta">
          <div>
            <b>{t("scheme.labels.for")}</b>
            {t(`${base}.for`)}
          </div>
          <div>
            <b>{t("scheme.labels.edition")}</b>
            <Tag color="purple" variant="filled">
              {t(`${base}.edition`)}
            </Tag>
          </div>
        </div>
      </div>
      <div>
        <div className="sp-solution__pain">
          <b>{t("scheme.labels.pain")}</b>
          {t(`${base}.pain`)}
        </div>
        <div className="sp-solution__caps">
          {s.caps.map((c) => (
            <div key={c} className="sp-cap">
              <IconBadge icon={<CheckOutlined />} tone={s.tone} small />
              <div>
                <b>{t(`${base}.caps.${c}.title`)}</b>
                <span>{t(`${base}.caps.${c}.desc`)}</span>
              </div>
            </div>
          ))}
        </div>
      </div>
    </article>
  );
}

export default function SchemePage() {
  const { t } = useTranslation("site");
  return (
    <div className="sp-page" data-testid="page-scheme">
      <PageHero
        eyebrow={t("scheme.hero.eyebrow")}
        title={t("scheme.hero.title")}
        lead={t("scheme.hero.lead")}
        actions={SOLUTIONS.map((s) => (
          <a key={s.key} href={`#scheme-${s.key}`} className="sp-pill sp-pill--plain">
            {t(`scheme.solutions.${s.key}.short`)}
          </a>
        ))}
      />

      <section className="section">
        {SOLUTIONS.map((s) => (
          <SolutionBlock key={s.key} s={s} />
        ))}
      </section>

      <div className="sp-band--ink">
        <section className="section">
          <SectionHeading center light eyebrow={t("scheme.stack.eyebrow")} title={t("scheme.stack.title")} lead={t("scheme.stack.lead")} />
          <div className="sp-stack">
            {LAYERS.map((l, i) => (
              <div key={l.key} className={`sp-stack__layer${i === 0 ? " sp-stack__layer--top" : ""}`}>
                <b>
                  {t(`scheme.stack.layers.${l.key}.name`)}
                  <small>{t(`scheme.stack.layers.${l.key}.note`)}</small>
                </b>
                <div className="sp-stack__items">
                  {l.items.map((it) => (
                    <span key={it}>{t(`scheme.stack.layers.${l.key}.items.${it}`)}</span>
                  ))}
                </div>
              </div>
            ))}
          </div>
        </section>
      </div>

      <section className="section">
        <SectionHeading center eyebrow={t("scheme.deploy.eyebrow")} title={t("scheme.deploy.title")} lead={t("scheme.deploy.lead")} />
        <CardGrid cols={3}>
          {DEPLOY.map((d) => (
            <IconCard
              key={d.key}
              icon={d.icon}
              tone={d.tone}
              title={t(`scheme.deploy.items.${d.key}.title`)}
              desc={t(`scheme.deploy.items.${d.key}.desc`)}
              extra={<Tag variant="filled">{t(`scheme.deploy.items.${d.key}.tag`)}</Tag>}
            />
          ))}
        </CardGrid>
      </section>

      <div className="sp-band">
        <section className="section">
          <div className="lp-duo">
            <div>
              <SectionHeading eyebrow={t("scheme.trust.eyebrow")} title={t("scheme.trust.title")} lead={t("scheme.trust.lead")} />
              <AppLink to="/policy">
                <Button>{t("scheme.trust.policy")}</Button>
              </AppLink>
            </div>
            <ul className="sp-checks" style={{ marginTop: 0 }}>
              {TRUST.map((k) => (
                <li key={k}>
                  <CheckOutlined />
                  <div>
                    <b>{t(`scheme.trust.items.${k}.title`)}</b>
                    <span>{t(`scheme.trust.items.${k}.desc`)}</span>
                  </div>
                </li>
              ))}
            </ul>
          </div>
          <div style={{ marginTop: 40 }}>
            <ContactCard title={t("scheme.contact.title")} desc={t("scheme.contact.desc")} />
          </div>
        </section>
      </div>

      <div className="sp-cta-wrap">
        <CtaBand
          title={t("scheme.cta.title")}
          lead={t("scheme.cta.lead")}
          actions={
            <>
              <AppLink to="/case">
                <Button size="large" className="sp-btn-light">
                  {t("scheme.cta.primary")}
                </Button>
              </AppLink>
              <AppLink to="/partner">
                <Button size="large" ghost className="sp-btn-ghost">
                  {t("scheme.cta.secondary")}
                </Button>
              </AppLink>
            </>
          }
        />
      </div>
    </div>
  );
}
