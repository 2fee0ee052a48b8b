// /share?app=&touser= : where an app's share link leads. Phones go straight to the
// chat keeping app and touser; desktops see the app's card, a QR code of the phone link (drawn as
// SVG on the server) and a button to open the chat here.
import { QrcodeOutlined, MessageOutlined } from "@ant-design/icons";
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import QRCode from "qrcode";
import { useTranslation } from "react-i18next";
import { getEnv } from "../../../server/env";
import { AppLink } from "../../components/app-link";
import { H5AppCard } from "../../components/h5/h5-app-card";
import { isPhoneUserAgent, loadH5Page } from "../../components/h5/h5-loader.server";
import { pageMeta } from "../../components/site/page-meta";
import "../../styles/h5.css";

export const handle = { i18n: ["h5"] };
export const meta = pageMeta("Zelin · Share");

/** The chat's path for this app, with the sharer kept for crediting later. */
function toDialoguePath(appId: string, touser: string | null) {
  const q = new URLSearchParams({ app: appId });
  if (touser) q.set("touser", touser);
  return `/mobi/dialogue?${q}`;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const touser = url.searchParams.get("touser");
  const appId = url.searchParams.get("app") ?? "";
  if (isPhoneUserAgent(request.headers.get("user-agent"))) throw redirect(toDialoguePath(appId, touser));
  const { data } = await loadH5Page(request);
  const origin = (getEnv().PUBLIC_URL ?? url.origin).replace(/\/+$/, "");
  const phoneUrl = `${origin}${toDialoguePath(data.app.id, touser)}`;
  const qrSvg = await QRCode.toString(phoneUrl, { type: "svg", margin: 1, errorCorrectionLevel: "M", color: { dark: "#111827", light: "#ffffff" } });
  return { app: data.app, phoneUrl, qrSvg, dialoguePath: toDialoguePath(data.app.id, touser) };
}

export default function SharePage() {
  const { t } = useTranslation("h5");
  const { app, phoneUrl, qrSvg, dialoguePath } = useLoaderData<typeof loader>();
  return (
    <main className="h5-share" data-testid="h5-share">
      <section className="h5-share__panel">
        <H5AppCard app={app} />
        <div className="h5-share__qr">
          {/* The SVG is ours (the qrcode package's output for our own URL), not user content. */}
          <div
            className="h5-share__qr-code"
            data-testid="h5-share-qr"
            role="img"
            aria-label={t("share.qr_label")}
            dangerouslySetInnerHTML={{ __html: qrSvg }}
          />
          <p>
            <QrcodeOutlined /> {t("share.scan_hint")}
          </p>
          <code className="h5-share__link">{phoneUrl}</code>
        </div>
        <AppLink to={dialoguePath} className="h5-btn h5-btn--primary h5-btn--block" data-testid="h5-share-open">
          <MessageOutlined /> {t("share.open")}
        </AppLink>
      </section>
    </main>
  );
}
