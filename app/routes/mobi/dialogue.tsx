import { HomeOutlined, LinkOutlined, MessageOutlined, QrcodeOutlined } from "@ant-design/icons";
import { useSearchParams } from "@remix-run/react";
import { Button, Result } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { IconBadge, type TTone } from "../../components/site/icon-card";
import { PhoneChatArt } from "../../components/site/phone-chat-art";
import { pageMeta } from "../../components/site/page-meta";
import "../../styles/site-pages.css";

export const handle = { i18n: ["mobi"] };

export const meta = pageMeta("Zelin · Chat");

const WAYS: { key: string; icon: ReactNode; tone: TTone }[] = [
  { key: "link", icon: <LinkOutlined />, tone: "indigo" },
  { key: "qr", icon: <QrcodeOutlined />, tone: "cyan" },
  { key: "bot", icon: <MessageOutlined />, tone: "emerald" },
];

/** /mobi/dialogue?app=<id> is where an app's share link and QR code lead. */
export default function MobiDialogue() {
  const { t } = useTranslation("mobi");
  const [params] = useSearchParams();
  const app = params.get("app")?.trim();

  if (app) {
    // No apps are published yet, so every app id is one that does not exist (or no longer does).
    return (
      <div className="sp-page mp" data-testid="mobi-dialogue-missing">
        <div className="mp-card mp-center">
          <Result
            status="404"
            title={t("dialogue.missing.title")}
            subTitle={t("dialogue.missing.body")}
            extra={
              <AppLink to="/">
                <Button type="primary" icon={<HomeOutlined />}>
                  {t("dialogue.missing.home")}
                </Button>
              </AppLink>
            }
          />
        </div>
      </div>
    );
  }

  return (
    <div className="sp-page mp" data-testid="mobi-dialogue">
      <section className="mp-card" style={{ textAlign: "center", paddingTop: 28 }}>
        <PhoneChatArt />
        <h1 style={{ fontSize: "1.4rem", margin: "18px 0 6px" }}>{t("dialogue.empty.title")}</h1>
        <p className="mp-card__lead" style={{ margin: 0 }}>
          {t("dialogue.empty.lead")}
        </p>
      </section>
      <section className="mp-card">
        <h2>{t("dialogue.empty.ways_title")}</h2>
        <ul className="mp-list">
          {WAYS.map((w) => (
            <li key={w.key}>
              <IconBadge icon={w.icon} tone={w.tone} small />
              <div>
                <b>{t(`dialogue.empty.ways.${w.key}.title`)}</b>
                <span>{t(`dialogue.empty.ways.${w.key}.desc`)}</span>
              </div>
            </li>
          ))}
        </ul>
      </section>
      <div style={{ display: "grid", gap: 10 }}>
        <AppLink to="/">
          <Button type="primary" size="large" block icon={<HomeOutlined />}>
            {t("dialogue.empty.home")}
          </Button>
        </AppLink>
        <AppLink to="/intro">
          <Button size="large" block>
            {t("dialogue.empty.intro")}
          </Button>
        </AppLink>
      </div>
    </div>
  );
}
