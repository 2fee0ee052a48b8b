// The share panel: the share link carrying the sharer as touser, its QR code (shown and
// downloadable as PNG), the embed snippets for other websites, and the way to the poster editor.
// Mounted only while open; everything is built in the browser from server/apps/app-share.ts.
import { CopyOutlined, DownloadOutlined, PictureOutlined } from "@ant-design/icons";
import { Alert, App, Button, Input, Modal, Space, Tabs, Typography } from "antd";
import QRCode from "qrcode";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { copyText } from "../../lib/clipboard";
import { AppLink, useAppNavigate } from "../app-link";
import { buildIframeSnippet, buildScriptSnippet, buildShareUrl, posterEditorPath } from "../../../server/apps/app-share";
import type { TShareCredit } from "../../../server/money/distribution/share-credit";
import "./share.css";

export type TShareApp = { id: string; name: string };
/** `credit`: whether the sharer's edition earns a dividend from the link (the panel promises one only then). */
type TProps = { app: TShareApp | null; touser: string; credit: TShareCredit; origin?: string; onClose: () => void };

/** Width of the QR picture in pixels: sharp when printed, and large enough for phones to scan. */
export const QR_SIZE = 320;

/** A QR code of the text as a PNG data URL (dark modules on white, a quiet zone of 2 modules). */
export function makeQrDataUrl(text: string, width = QR_SIZE) {
  return QRCode.toDataURL(text, { errorCorrectionLevel: "M", margin: 2, width, color: { dark: "#000000", light: "#ffffff" } });
}

/** Saves a data URL or blob URL under a file name. */
export function downloadUrl(url: string, filename: string) {
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** A file name made of the app's name, without characters file systems refuse. */
export const safeFileName = (name: string, ext: string) => `${name.replace(/[\\/:*?"<>|\s]+/g, "_").slice(0, 40) || "app"}.${ext}`;

export function SharePanel(props: TProps) {
  return props.app ? <ShareDialog key={props.app.id} {...props} app={props.app} /> : null;
}

function CopyField({ value, testId, multiline, onCopy }: { value: string; testId: string; multiline?: boolean; onCopy: () => void }) {
  const { t } = useTranslation("share");
  return (
    <div className="share-field">
      {multiline ? (
        <Input.TextArea value={value} readOnly autoSize={{ minRows: 2, maxRows: 5 }} data-testid={testId} onFocus={(e) => e.currentTarget.select()} />
      ) : (
        <Input value={value} readOnly data-testid={testId} onFocus={(e) => e.currentTarget.select()} />
      )}
      <Button icon={<CopyOutlined />} onClick={onCopy} data-testid={`${testId}-copy`}>
        {t("copy")}
      </Button>
    </div>
  );
}

/** What the link earns the sharer: a dividend, or (basic edition) nothing yet and how to change that. */
function CreditNote({ credit }: { credit: TShareCredit }) {
  const { t } = useTranslation("share");
  if (credit.earns) return <Alert type="success" showIcon className="share-panel__credit" message={t("credit.earns")} data-testid="share-credit-earns" />;
  return (
    <Alert
      type="info"
      showIcon
      className="share-panel__credit"
      message={t("credit.none_title")}
      description={
        <>
          {t("credit.none_body", { edition: t(`editions.${credit.upgradeTo ?? "professional"}`, { ns: "common" }) })}{" "}
          <AppLink to="/upgrade">{t("credit.upgrade")}</AppLink>
        </>
      }
      data-testid="share-credit-none"
    />
  );
}

function ShareDialog({ app, touser, credit, origin, onClose }: TProps & { app: TShareApp }) {
  const { t } = useTranslation("share");
  const { message } = App.useApp();
  const navigate = useAppNavigate();
  const base = origin ?? window.location.origin;
  const link = useMemo(() => buildShareUrl(base, app.id, touser), [base, app.id, touser]);
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void makeQrDataUrl(link).then((url) => live && setQr(url));
    return () => {
      live = false;
    };
  }, [link]);

  const copy = async (text: string) => {
    if (await copyText(text)) message.success(t("copied"));
    else message.error(t("copy_failed"));
  };

  const embeds = [
    { key: "iframe", label: t("embed.iframe"), hint: t("embed.iframe_hint"), code: buildIframeSnippet(base, app, touser) },
    { key: "script", label: t("embed.script"), hint: t("embed.script_hint"), code: buildScriptSnippet(base, app, touser) },
  ];

  return (
    <Modal
      open
      title={t("title", { name: app.name })}
      onCancel={onClose}
      footer={null}
      width="min(640px, calc(100vw - 24px))"
      destroyOnHidden
      data-testid="share-panel"
    >
      <div className="share-panel" data-testid="share-panel-body">
        <section className="share-panel__section">
          <Typography.Text strong>{t("link")}</Typography.Text>
          <Typography.Paragraph type="secondary" className="share-panel__hint">
            {t("link_hint")}
          </Typography.Paragraph>
          <CopyField value={link} testId="share-link" onCopy={() => void copy(link)} />
          <CreditNote credit={credit} />
        </section>
        <section className="share-panel__section share-panel__qr">
          <div className="share-panel__qr-box">
            {qr ? (
              <img src={qr} alt={t("qr_alt", { name: app.name })} width={180} height={180} data-testid="share-qr" />
            ) : (
              <div className="share-panel__qr-placeholder" />
            )}
          </div>
          <Space direction="vertical">
            <Typography.Text strong>{t("qr")}</Typography.Text>
            <Typography.Text type="secondary">{t("qr_hint")}</Typography.Text>
            <Space wrap>
              <Button
                icon={<DownloadOutlined />}
                disabled={!qr}
                onClick={() => qr && downloadUrl(qr, safeFileName(`${app.name}-qr`, "png"))}
                data-testid="share-qr-download"
              >
                {t("qr_download")}
              </Button>
              <Button type="primary" icon={<PictureOutlined />} onClick={() => navigate(posterEditorPath(app.id))} data-testid="share-poster">
                {t("poster")}
              </Button>
            </Space>
          </Space>
        </section>
        <section className="share-panel__section">
          <Typography.Text strong>{t("embed.title")}</Typography.Text>
          <Tabs
            size="small"
            items={embeds.map((e) => ({
              key: e.key,
              label: e.label,
              children: (
                <>
                  <Typography.Paragraph type="secondary" className="share-panel__hint">
                    {e.hint}
                  </Typography.Paragraph>
                  <CopyField value={e.code} testId={`share-embed-${e.key}`} multiline onCopy={() => void copy(e.code)} />
                </>
              ),
            }))}
          />
        </section>
      </div>
    </Modal>
  );
}
