// /mobi/dialogue?app=<id>: the H5 app's chat, where share links and QR codes lead. Without an app
// it explains how to open one. This page is kept lean for phones (a budget of 170 KB of
// gzipped JavaScript, `npm run bench -- mobi-bundle`): plain elements instead of antd components,
// markdown loaded with the first answer.
import { HomeOutlined, LinkOutlined, MessageOutlined, QrcodeOutlined, ScanOutlined } from "@ant-design/icons";
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { H5Chat } from "../../components/h5/h5-chat";
import { loadH5Page } from "../../components/h5/h5-loader.server";
import { PhoneChatArt } from "../../components/site/phone-chat-art";
import "../../styles/chat.css";
import "../../styles/h5.css";

export const handle = { i18n: ["h5", "chat", "mobi", "purchases"] };

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const inherited = matches.flatMap((m) => m.meta ?? []).filter((d) => !("title" in d));
  return [...inherited, { title: data?.app ? data.app.name : "Zelin · Chat" }];
};

export async function loader({ request }: LoaderFunctionArgs) {
  if (!new URL(request.url).searchParams.get("app")) return data({ app: null, viewerId: null });
  const page = await loadH5Page(request);
  return data(page.data, { headers: page.headers });
}

// The chat keeps its own state; a new dialogue id in the URL never reloads the app.
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  currentUrl.searchParams.get("app") === nextUrl.searchParams.get("app") && currentUrl.pathname === nextUrl.pathname ? false : defaultShouldRevalidate;

const WAYS: { key: string; icon: ReactNode; tone: string }[] = [
  { key: "link", icon: <LinkOutlined />, tone: "indigo" },
  { key: "qr", icon: <QrcodeOutlined />, tone: "cyan" },
  { key: "bot", icon: <MessageOutlined />, tone: "emerald" },
];

export default function MobiDialogue() {
  const { app, viewerId } = useLoaderData<typeof loader>();
  if (app) return <H5Chat key={app.id} app={app} viewerId={viewerId} />;
  return <NoApp />;
}

function NoApp() {
  const { t } = useTranslation("mobi");
  const { t: th } = useTranslation("h5");
  return (
    <main className="h5-page" data-testid="mobi-dialogue">
      <section className="h5-panel" style={{ textAlign: "center", paddingTop: 28 }}>
        <PhoneChatArt />
        <h1 className="h5-title">{t("dialogue.empty.title")}</h1>
        <p className="h5-muted">{t("dialogue.empty.lead")}</p>
      </section>
      <section className="h5-panel">
        <h2 className="h5-subtitle">{t("dialogue.empty.ways_title")}</h2>
        <ul className="h5-ways">
          {WAYS.map((w) => (
            <li key={w.key}>
              <span className={`h5-way-icon tone-${w.tone}`}>{w.icon}</span>
              <div>
                <b>{t(`dialogue.empty.ways.${w.key}.title`)}</b>
                <span>{t(`dialogue.empty.ways.${w.key}.desc`)}</span>
              </div>
            </li>
          ))}
        </ul>
      </section>
      <div className="h5-actions">
        <AppLink to="/mobi/scan" className="h5-btn h5-btn--primary h5-btn--block">
          <ScanOutlined /> {th("scan.title")}
        </AppLink>
        <AppLink to="/" className="h5-btn h5-btn--block">
          <HomeOutlined /> {t("dialogue.empty.home")}
        </AppLink>
      </div>
    </main>
  );
}
