import {
  BookOutlined,
  CodeOutlined,
  CustomerServiceOutlined,
  GiftOutlined,
  NotificationOutlined,
  PhoneOutlined,
  RocketOutlined,
  ShareAltOutlined,
  ShopOutlined,
  SolutionOutlined,
  TrophyOutlined,
  ThunderboltOutlined,
} from "@ant-design/icons";
import { Button, Result, Steps, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink, useIsMobi } from "../../components/app-link";
import { useFlag, useShell } from "../../components/shell/shell-context";
import { ContactCard } from "../../components/site/contact-card";
import { CtaBand } from "../../components/site/cta-band";
import { FaqList } from "../../components/site/faq-list";
import { CardGrid, IconCard } from "../../components/site/icon-card";
import { PageHero } from "../../components/site/page-hero";
import { SectionHeading } from "../../components/site/section-heading";
import { pageMeta } from "../../components/site/page-meta";
import "../../styles/site-pages.css";

export const handle = { i18n: ["site"] };

export const meta = pageMeta("Zelin · Partner programme");

const TYPES = [
  { key: "reseller", icon: <ShopOutlined />, tone: "indigo" as const },
  { key: "solution", icon: <SolutionOutlined />, tone: "cyan" as const },
  { key: "engineer", icon: <CodeOutlined />, tone: "violet" as const },
  { key: "promoter", icon: <ShareAltOutlined />, tone: "amber" as const },
  { key: "education", icon: <BookOutlined />, tone: "emerald" as const },
  { key: "ecosystem", icon: <TrophyOutlined />, tone: "rose" as const },
];

const BENEFITS = [
  { key: "revenue", icon: <GiftOutlined />, tone: "amber" as const },
  { key: "presales", icon: <CustomerServiceOutlined />, tone: "cyan" as const },
  { key: "training", icon: <RocketOutlined />, tone: "indigo" as const },
  { key: "marketing", icon: <NotificationOutlined />, tone: "rose" as const },
  { key: "early", icon: <ThunderboltOutlined />, tone: "violet" as const },
  { key: "tasks", icon: <SolutionOutlined />, tone: "emerald" as const },
];

const PROCESS = ["contact", "review", "agreement", "enable", "launch"] as const;
const PREPARE = ["name", "region", "type", "resources", "contact"] as const;
const FAQ = ["individual", "fee", "promoter", "engineer"] as const;

function telHref(phone: string) {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}

export default function PartnerPage() {
  const { t } = useTranslation("site");
  const { contactPhone } = useShell();
  const mobi = useIsMobi();
  const open = useFlag("partner_programme");

  if (!open) {
    return (
      <div className="sp-page error-screen" data-testid="page-partner">
        <Result
          status="info"
          title={t("partner.closed.title")}
          subTitle={t("partner.closed.body", { phone: contactPhone })}
          extra={
            <AppLink to="/">
              <Button type="primary">{t("shared.back_home")}</Button>
            </AppLink>
          }
        />
      </div>
    );
  }

  return (
    <div className="sp-page" data-testid="page-partner">
      <PageHero
        eyebrow={t("partner.hero.eyebrow")}
        title={t("partner.hero.title")}
        lead={t("partner.hero.lead")}
        actions={
          <>
            <Button type="primary" size="large" icon={<PhoneOutlined />} href={telHref(contactPhone)}>
              {t("partner.hero.call", { phone: contactPhone })}
            </Button>
            <Button size="large" href="#partner-apply">
              {t("partner.hero.how")}
            </Button>
          </>
        }
      />

      <section className="section" id="partner-types">
        <SectionHeading eyebrow={t("partner.types.eyebrow")} title={t("partner.types.title")} lead={t("partner.types.lead")} />
        <CardGrid cols={3}>
          {TYPES.map((p) => (
            <IconCard
              key={p.key}
              icon={p.icon}
              tone={p.tone}
              title={t(`partner.types.items.${p.key}.title`)}
              desc={t(`partner.types.items.${p.key}.desc`)}
              extra={
                <Tag color="geekblue" variant="filled">
                  {t(`partner.types.items.${p.key}.who`)}
                </Tag>
              }
            />
          ))}
        </CardGrid>
      </section>

      <div className="sp-band">
        <section className="section">
          <SectionHeading center eyebrow={t("partner.benefits.eyebrow")} title={t("partner.benefits.title")} />
          <CardGrid cols={3}>
            {BENEFITS.map((b) => (
              <IconCard
                key={b.key}
                row
                icon={b.icon}
                tone={b.tone}
                title={t(`partner.benefits.items.${b.key}.title`)}
                desc={t(`partner.benefits.items.${b.key}.desc`)}
              />
            ))}
          </CardGrid>
        </section>
      </div>

      <section className="section" id="partner-apply">
        <SectionHeading eyebrow={t("partner.apply.eyebrow")} title={t("partner.apply.title")} lead={t("partner.apply.lead")} />
        <div className="sp-apply">
          <div className="sp-apply__card">
            <h3>{t("partner.apply.process_title")}</h3>
            <Steps
              orientation="vertical"
              current={-1}
              items={PROCESS.map((k) => ({
                status: "process" as const,
                title: t(`partner.apply.process.${k}.title`),
                content: t(`partner.apply.process.${k}.desc`),
              }))}
              style={{ marginTop: 16 }}
            />
          </div>
          <div style={{ display: "grid", gap: 20 }}>
            <ContactCard title={t("partner.apply.call_title")} desc={t("partner.apply.call_desc")} />
            <div className="sp-apply__card">
              <h3>{t("partner.apply.prepare_title")}</h3>
              <ol className="sp-apply__list">
                {PREPARE.map((k) => (
                  <li key={k}>{t(`partner.apply.prepare.${k}`)}</li>
                ))}
              </ol>
              <p className="sp-card__desc" style={{ marginTop: 14 }}>
                {t("partner.apply.note")}
              </p>
            </div>
          </div>
        </div>
      </section>

      <div className="sp-band">
        <section className="section">
          <SectionHeading center eyebrow={t("partner.faq.eyebrow")} title={t("partner.faq.title")} />
          <FaqList ns="site" base="partner.faq.items" keys={FAQ} />
        </section>
      </div>

      <div className="sp-cta-wrap">
        <CtaBand
          title={t("partner.cta.title")}
          lead={t("partner.cta.lead")}
          actions={
            <>
              <Button size="large" className="sp-btn-light" icon={<PhoneOutlined />} href={telHref(contactPhone)}>
                {mobi ? t("shared.call") : contactPhone}
              </Button>
              <AppLink to="/case">
                <Button size="large" ghost className="sp-btn-ghost">
                  {t("partner.cta.secondary")}
                </Button>
              </AppLink>
            </>
          }
        />
      </div>
    </div>
  );
}
