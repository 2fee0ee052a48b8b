import {
  AppstoreOutlined,
  BulbOutlined,
  CodeOutlined,
  CrownOutlined,
  DesktopOutlined,
  MessageOutlined,
  PictureOutlined,
  RightOutlined,
  RocketOutlined,
  ShopOutlined,
  SolutionOutlined,
  TeamOutlined,
  UserOutlined,
  WalletOutlined,
} from "@ant-design/icons";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Alert, Button, Steps, Tag } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { CHANNELS } from "../../components/site/channel-icons";
import { ContactCard } from "../../components/site/contact-card";
import { IconBadge, type TTone } from "../../components/site/icon-card";
import { pageMeta } from "../../components/site/page-meta";
import { H5AppIntro } from "../../components/h5/h5-app-intro";
import { loadH5Page } from "../../components/h5/h5-loader.server";
import "../../styles/site-pages.css";
import "../../styles/h5.css";

export const handle = { i18n: ["mobi", "site", "home", "h5"] };

/** /mobi/intro?app=<id> introduces that app; without one, the platform. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!new URL(request.url).searchParams.get("app")) return { app: null };
  return { app: (await loadH5Page(request)).data.app };
}

export const meta = pageMeta("Zelin · About");

const PILLARS: { key: string; icon: ReactNode; tone: TTone }[] = [
  { key: "build", icon: <BulbOutlined />, tone: "indigo" },
  { key: "publish", icon: <RocketOutlined />, tone: "cyan" },
  { key: "earn", icon: <WalletOutlined />, tone: "emerald" },
  { key: "create", icon: <PictureOutlined />, tone: "rose" },
];

const AUDIENCE: { key: string; icon: ReactNode; tone: TTone }[] = [
  { key: "developer", icon: <CodeOutlined />, tone: "indigo" },
  { key: "enterprise", icon: <TeamOutlined />, tone: "cyan" },
  { key: "engineer", icon: <SolutionOutlined />, tone: "violet" },
  { key: "consumer", icon: <UserOutlined />, tone: "amber" },
];

const START = ["register", "build", "publish"] as const;

const LINKS: { key: string; to: string; icon: ReactNode; tone: TTone }[] = [
  { key: "upgrade", to: "/upgrade", icon: <CrownOutlined />, tone: "amber" },
  { key: "withdrawal", to: "/withdrawal_tip", icon: <WalletOutlined />, tone: "emerald" },
  { key: "dialogue", to: "/dialogue", icon: <MessageOutlined />, tone: "indigo" },
  { key: "case", to: "/case", icon: <ShopOutlined />, tone: "rose" },
  { key: "scheme", to: "/scheme", icon: <AppstoreOutlined />, tone: "cyan" },
];

export default function MobiIntro() {
  const { app } = useLoaderData<typeof loader>();
  return app ? <H5AppIntro app={app} /> : <PlatformIntro />;
}

function PlatformIntro() {
  const { t } = useTranslation("mobi");
  return (
    <div className="sp-page mp" data-testid="mobi-intro">
      <section className="mp-hero">
        <span className="mp-hero__eyebrow">{t("intro.hero.eyebrow")}</span>
        <h1>{t("intro.hero.title")}</h1>
        <p>{t("intro.hero.lead")}</p>
        <div className="mp-hero__actions">
          <AppLink to="/upgrade">
            <Button className="sp-btn-light">{t("intro.hero.primary")}</Button>
          </AppLink>
          <AppLink to="/case">
            <Button ghost className="sp-btn-ghost">
              {t("intro.hero.secondary")}
            </Button>
          </AppLink>
        </div>
      </section>

      <section className="mp-card">
        <h2>{t("intro.pillars.title")}</h2>
        <p className="mp-card__lead">{t("intro.pillars.lead")}</p>
        <div className="mp-tiles">
          {PILLARS.map((p) => (
            <div key={p.key} className="mp-tile">
              <IconBadge icon={p.icon} tone={p.tone} small />
              <b>{t(`intro.pillars.items.${p.key}.title`)}</b>
              <span>{t(`intro.pillars.items.${p.key}.desc`)}</span>
            </div>
          ))}
        </div>
      </section>

      <section className="mp-card">
        <h2>{t("intro.channels.title")}</h2>
        <p className="mp-card__lead">{t("intro.channels.lead")}</p>
        <div className="sp-tags">
          {CHANNELS.map((c) => (
            <Tag key={c.key} icon={c.icon} color="geekblue" variant="filled" style={{ padding: "2px 10px", fontSize: 13 }}>
              {t(`channels.${c.key}`, { ns: "home" })}
            </Tag>
          ))}
          <Tag color="purple" variant="filled" style={{ padding: "2px 10px", fontSize: 13 }}>
            {t("intro.channels.workshop")}
          </Tag>
          <Tag color="purple" variant="filled" style={{ padding: "2px 10px", fontSize: 13 }}>
            {t("intro.channels.digital")}
          </Tag>
        </div>
      </section>

      <section className="mp-card">
        <h2>{t("intro.audience.title")}</h2>
        <ul className="mp-list">
          {AUDIENCE.map((a) => (
            <li key={a.key}>
              <IconBadge icon={a.icon} tone={a.tone} small />
              <div>
                <b>{t(`intro.audience.items.${a.key}.title`)}</b>
                <span>{t(`intro.audience.items.${a.key}.desc`)}</span>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section className="mp-card">
        <h2>{t("intro.start.title")}</h2>
        <Steps
          orientation="vertical"
          size="small"
          current={-1}
          style={{ marginTop: 12 }}
          items={START.map((k) => ({ status: "process" as const, title: t(`intro.start.items.${k}.title`), content: t(`intro.start.items.${k}.desc`) }))}
        />
        <Alert type="info" showIcon icon={<DesktopOutlined />} title={t("intro.start.pc_note")} />
      </section>

      <nav className="mp-links" aria-label={t("intro.links.label")}>
        {LINKS.map((l) => (
          <AppLink key={l.key} to={l.to} className="mp-link">
            <IconBadge icon={l.icon} tone={l.tone} small />
            <div>
              <b>{t(`intro.links.${l.key}.title`)}</b>
              <span>{t(`intro.links.${l.key}.desc`)}</span>
            </div>
            <RightOutlined />
          </AppLink>
        ))}
      </nav>

      <ContactCard title={t("intro.contact.title")} desc={t("intro.contact.desc")} />
    </div>
  );
}
