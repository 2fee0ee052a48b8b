import {
  ApartmentOutlined,
  ApiOutlined,
  ArrowRightOutlined,
  AppstoreOutlined,
  CheckCircleFilled,
  CheckOutlined,
  CloudServerOutlined,
  DatabaseOutlined,
  FilePptOutlined,
  FileTextOutlined,
  FormOutlined,
  GlobalOutlined,
  IdcardOutlined,
  MessageOutlined,
  PictureOutlined,
  ReadOutlined,
  RobotOutlined,
  SafetyCertificateOutlined,
  ShareAltOutlined,
  ShopOutlined,
  SlidersOutlined,
  SoundOutlined,
  TrophyOutlined,
  UserSwitchOutlined,
  VideoCameraOutlined,
  WalletOutlined,
} from "@ant-design/icons";
import { Button } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { SetupNotice } from "../../components/auth/setup-notice";
import { useFlag } from "../../components/shell/shell-context";
import { ConsoleMock } from "../../components/site/console-mock";
import { ContactCard } from "../../components/site/contact-card";
import { CtaBand } from "../../components/site/cta-band";
import { EarnSplit } from "../../components/site/earn-split";
import { EditionCards } from "../../components/site/edition-plans";
import { FaqList } from "../../components/site/faq-list";
import { HeroVisual } from "../../components/site/hero-visual";
import { CardGrid, IconCard, type TTone } from "../../components/site/icon-card";
import { SectionHeading } from "../../components/site/section-heading";
import { StepStrip } from "../../components/site/step-strip";
import { pageMeta } from "../../components/site/page-meta";
import "../../styles/site-pages.css";
import { data, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { routeHomeForPhones } from "../../lib/phone-site.server";

export const handle = { i18n: ["home", "site"] };

export const meta = pageMeta("Zelin · AI Agent Platform");

/** A phone opening / goes to /mobi, unless its visitor chose the desktop site. */
export async function loader({ request }: LoaderFunctionArgs) {
  return data(null, { headers: routeHomeForPhones(request) });
}

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

type TItem = { key: string; icon: ReactNode; tone: TTone };

const BUILD: TItem[] = [
  { key: "prompt", icon: <UserSwitchOutlined />, tone: "indigo" },
  { key: "model", icon: <SlidersOutlined />, tone: "violet" },
  { key: "variables", icon: <FormOutlined />, tone: "sky" },
  { key: "knowledge", icon: <DatabaseOutlined />, tone: "cyan" },
  { key: "plugins", icon: <AppstoreOutlined />, tone: "emerald" },
  { key: "network", icon: <GlobalOutlined />, tone: "amber" },
  { key: "documents", icon: <FileTextOutlined />, tone: "rose" },
  { key: "models", icon: <CloudServerOutlined />, tone: "slate" },
];

const PUBLISH = [
  { key: "h5", icon: <GlobalOutlined /> },
  { key: "api", icon: <ApiOutlined /> },
  { key: "bot", icon: <MessageOutlined /> },
  { key: "workshop", icon: <ApartmentOutlined /> },
  { key: "digital", icon: <IdcardOutlined /> },
] as const;

const EARN: TItem[] = [
  { key: "plans", icon: <ShopOutlined />, tone: "indigo" },
  { key: "distribution", icon: <ShareAltOutlined />, tone: "cyan" },
  { key: "withdraw", icon: <WalletOutlined />, tone: "emerald" },
  { key: "tasks", icon: <TrophyOutlined />, tone: "amber" },
];

const CREATE: TItem[] = [
  { key: "ppt", icon: <FilePptOutlined />, tone: "rose" },
  { key: "exam", icon: <ReadOutlined />, tone: "indigo" },
  { key: "image", icon: <PictureOutlined />, tone: "violet" },
  { key: "video", icon: <VideoCameraOutlined />, tone: "cyan" },
  { key: "lipsync", icon: <RobotOutlined />, tone: "amber" },
  { key: "voice", icon: <SoundOutlined />, tone: "emerald" },
];

const ENTERPRISE = ["accounts", "allocate", "brand", "stats", "internal", "security"] as const;
const STATS = ["forms", "channels", "share", "coin"] as const;
const STEPS = ["build", "train", "publish", "earn"] as const;
const FAQ = ["no_code", "models", "coin", "withdraw", "data", "edition"] as const;

export default function Home() {
  const { t } = useTranslation("home");
  const taskCentre = useFlag("task_centre");
  const earn = taskCentre ? EARN : EARN.filter((e) => e.key !== "tasks");
  return (
    <div className="sp-page" data-testid="page-home">
      <SetupNotice banner />
      <section className="lp-hero">
        <span className="lp-hero__glow lp-hero__glow--a" aria-hidden="true" />
        <span className="lp-hero__glow lp-hero__glow--b" aria-hidden="true" />
        <div className="lp-hero__inner">
          <div>
            <span className="sp-pill">
              <span className="sp-pill__dot">{t("hero.badge")}</span>
              {t("hero.eyebrow")}
            </span>
            <h1 className="lp-hero__title">
              <span>{t("hero.title_lead")}</span>
              <span className="sp-gradient-text">{t("hero.title_highlight")}</span>
            </h1>
            <p className="lp-hero__lead">{t("hero.lead")}</p>
            <div className="lp-hero__actions">
              <AppLink to="/scheme">
                <Button type="primary" size="large" icon={<ArrowRightOutlined />} iconPlacement="end">
                  {t("hero.cta_primary")}
                </Button>
              </AppLink>
              <AppLink to="/case">
                <Button size="large">{t("hero.cta_secondary")}</Button>
              </AppLink>
              <AppLink to="/index" data-testid="home-market">
                <Button size="large" icon={<ShopOutlined />}>
                  {t("hero.cta_market")}
                </Button>
              </AppLink>
            </div>
            <ul className="lp-hero__notes">
              {(["no_code", "everywhere", "earn"] as const).map((k) => (
                <li key={k}>
                  <CheckCircleFilled />
                  {t(`hero.notes.${k}`)}
                </li>
              ))}
            </ul>
          </div>
          <HeroVisual />
        </div>
      </section>

      <div className="lp-stats">
        <div className="lp-stats__inner">
          {STATS.map((k) => (
            <div key={k} className="lp-stat">
              <strong className="sp-gradient-text">{t(`stats.${k}.value`)}</strong>
              <span>{t(`stats.${k}.label`)}</span>
            </div>
          ))}
        </div>
      </div>

      <section className="section">
        <SectionHeading eyebrow={t("build.eyebrow")} title={t("build.title")} lead={t("build.lead")} />
        <CardGrid cols={4}>
          {BUILD.map((f) => (
            <IconCard key={f.key} icon={f.icon} tone={f.tone} title={t(`build.items.${f.key}.title`)} desc={t(`build.items.${f.key}.desc`)} />
          ))}
        </CardGrid>
      </section>

      <div className="sp-band--ink">
        <section className="section">
          <SectionHeading light eyebrow={t("publish.eyebrow")} title={t("publish.title")} lead={t("publish.lead")} />
          <div className="lp-channels">
            {PUBLISH.map((p) => (
              <div key={p.key} className="lp-channel">
                <span className="lp-channel__icon">{p.icon}</span>
                <h3>{t(`publish.items.${p.key}.title`)}</h3>
                <p>{t(`publish.items.${p.key}.desc`)}</p>
                <span className="lp-channel__tag">{t(`publish.items.${p.key}.tag`)}</span>
              </div>
            ))}
          </div>
        </section>
      </div>

      <section className="section">
        <div className="lp-earn">
          <SectionHeading eyebrow={t("earn.eyebrow")} title={t("earn.title")} lead={t("earn.lead")} />
          <EarnSplit />
        </div>
        <div style={{ marginTop: 40 }}>
          <CardGrid cols={earn.length}>
            {earn.map((e) => (
              <IconCard key={e.key} icon={e.icon} tone={e.tone} title={t(`earn.points.${e.key}.title`)} desc={t(`earn.points.${e.key}.desc`)} />
            ))}
          </CardGrid>
        </div>
      </section>

      <div className="sp-band">
        <section className="section">
          <SectionHeading center eyebrow={t("create.eyebrow")} title={t("create.title")} lead={t("create.lead")} />
          <CardGrid cols={3}>
            {CREATE.map((f) => (
              <IconCard key={f.key} icon={f.icon} tone={f.tone} title={t(`create.items.${f.key}.title`)} desc={t(`create.items.${f.key}.desc`)} />
            ))}
          </CardGrid>
        </section>
      </div>

      <section className="section">
        <div className="lp-duo">
          <ConsoleMock />
          <div>
            <SectionHeading eyebrow={t("enterprise.eyebrow")} title={t("enterprise.title")} lead={t("enterprise.lead")} />
            <ul className="sp-checks">
              {ENTERPRISE.map((k) => (
                <li key={k}>
                  <CheckOutlined />
                  <div>
                    <b>{t(`enterprise.points.${k}.title`)}</b>
                    <span>{t(`enterprise.points.${k}.desc`)}</span>
                  </div>
                </li>
              ))}
            </ul>
            <div style={{ marginTop: 28 }}>
              <AppLink to="/scheme">
                <Button type="primary" icon={<SafetyCertificateOutlined />}>
                  {t("enterprise.cta")}
                </Button>
              </AppLink>
            </div>
          </div>
        </div>
      </section>

      <div className="sp-band">
        <section className="section">
          <SectionHeading center eyebrow={t("steps.eyebrow")} title={t("steps.title")} />
          <StepStrip steps={STEPS.map((k) => ({ key: k, title: t(`steps.items.${k}.title`), desc: t(`steps.items.${k}.desc`) }))} />
        </section>
      </div>

      <section className="section" id="pricing">
        <SectionHeading center eyebrow={t("pricing.eyebrow")} title={t("pricing.title")} lead={t("pricing.lead")} />
        <EditionCards />
        <p className="sp-plans__note">{t("pricing.note")}</p>
        <div style={{ maxWidth: 720, margin: "24px auto 0" }}>
          <ContactCard title={t("pricing.contact_title")} desc={t("pricing.contact_desc")} />
        </div>
      </section>

      <div className="sp-band">
        <section className="section">
          <SectionHeading center eyebrow={t("faq.eyebrow")} title={t("faq.title")} />
          <FaqList ns="home" base="faq.items" keys={FAQ} />
        </section>
      </div>

      <div className="sp-cta-wrap">
        <CtaBand
          title={t("cta.title")}
          lead={t("cta.lead")}
          actions={
            <>
              <AppLink to="/scheme">
                <Button size="large" className="sp-btn-light">
                  {t("cta.primary")}
                </Button>
              </AppLink>
              <AppLink to="/partner">
                <Button size="large" ghost className="sp-btn-ghost">
                  {t("cta.secondary")}
                </Button>
              </AppLink>
            </>
          }
        />
      </div>
    </div>
  );
}
