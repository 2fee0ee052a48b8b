// /posterEditor?app=: a share poster for an app. Pick a background (built-in, or one uploaded through
// the upload service), the title and subtitle with their colours, and where the QR code of the share
// link sits (presets, or drag it in the preview); "Download PNG" saves exactly the preview.
// Rendered in the browser on a canvas (docs/decisions/0005 says why not on the server).
import { CheckOutlined, DownloadOutlined, UploadOutlined } from "@ant-design/icons";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { App, Button, Card, ColorPicker, Form, Input, Segmented, Typography, Upload } from "antd";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { downloadUrl, safeFileName } from "../../components/apps/share-panel";
import {
  canvasToPngBlob,
  clampQr,
  isInsideQr,
  loadImage,
  placeQr,
  POSTER_HEIGHT,
  POSTER_WIDTH,
  QR_PRESETS,
  renderPoster,
  type TPosterState,
  type TQrPreset,
} from "../../components/apps/poster/render-poster";
import { useImageUpload } from "../../components/ui/use-image-upload";
import { requireSessionAccount } from "../../lib/auth.server";
import { orNotFound } from "../../lib/or-not-found.server";
import { getEnv } from "../../../server/env";
import { buildShareUrl } from "../../../server/apps/app-share";
import { getShareTarget } from "../../../server/apps/app-share.service";
import { AVATAR_LIMITS, IMAGE_ACCEPT } from "../../../server/uploads/upload-limits";
import "../../components/apps/share.css";

export const handle = { i18n: ["share"] };

/** Built-in backgrounds (public/posters), with the text colours that read well on each. */
const BUILT_IN = [
  { key: "ocean", url: "/posters/ocean.png", title: "#ffffff", subtitle: "#dbe9ff" },
  { key: "sunset", url: "/posters/sunset.png", title: "#ffffff", subtitle: "#fff1e0" },
  { key: "forest", url: "/posters/forest.png", title: "#ffffff", subtitle: "#e3f7ec" },
  { key: "paper", url: "/posters/paper.png", title: "#1f1f1f", subtitle: "#595959" },
] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  const url = new URL(request.url);
  const app = await orNotFound(() => getShareTarget(account, url.searchParams.get("app") ?? ""));
  const origin = (getEnv().PUBLIC_URL ?? url.origin).replace(/\/+$/, "");
  return { app, link: buildShareUrl(origin, app.id, account.id) };
}

type TBackground = { key: string; url: string };

export default function PosterEditor() {
  const { t } = useTranslation("share");
  const { message } = App.useApp();
  const { app, link } = useLoaderData<typeof loader>();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [uploaded, setUploaded] = useState<TBackground | null>(null);
  const [state, setState] = useState<TPosterState>({
    backgroundUrl: BUILT_IN[0].url,
    title: app.name,
    subtitle: app.introduction.slice(0, 60),
    titleColor: BUILT_IN[0].title,
    subtitleColor: BUILT_IN[0].subtitle,
    qr: placeQr("bottom_center"),
  });
  const [preset, setPreset] = useState<TQrPreset | null>("bottom_center");
  const [background, setBackground] = useState<HTMLImageElement | null>(null);
  const [busy, setBusy] = useState(false);
  const drag = useRef<{ dx: number; dy: number } | null>(null);
  const caption = t("poster_editor.scan_caption");

  useEffect(() => {
    let live = true;
    loadImage(state.backgroundUrl)
      .then((img) => live && setBackground(img))
      .catch(() => live && setBackground(null));
    return () => {
      live = false;
    };
  }, [state.backgroundUrl]);

  useEffect(() => {
    if (canvasRef.current) renderPoster(canvasRef.current, state, background, link, caption);
  }, [state, background, link, caption]);

  const upload = useImageUpload<{ url: string }>("/api/v1/uploads/image", AVATAR_LIMITS.maxBytes, ({ url }) => {
    setUploaded({ key: "uploaded", url });
    setState((s) => ({ ...s, backgroundUrl: url }));
  });

  const backgrounds: TBackground[] = useMemo(() => [...BUILT_IN.map((b) => ({ key: b.key, url: b.url })), ...(uploaded ? [uploaded] : [])], [uploaded]);
  const pickBackground = (b: TBackground) => {
    const builtIn = BUILT_IN.find((x) => x.key === b.key);
    setState((s) => ({ ...s, backgroundUrl: b.url, ...(builtIn ? { titleColor: builtIn.title, subtitleColor: builtIn.subtitle } : {}) }));
  };

  const toPoster = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    return { x: ((e.clientX - rect.left) * POSTER_WIDTH) / rect.width, y: ((e.clientY - rect.top) * POSTER_HEIGHT) / rect.height };
  };
  const onPointerDown = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const p = toPoster(e);
    if (!isInsideQr(state, p)) return;
    drag.current = { dx: p.x - state.qr.x, dy: p.y - state.qr.y };
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const p = toPoster(e);
    e.currentTarget.style.cursor = drag.current || isInsideQr(state, p) ? "move" : "default";
    if (!drag.current) return;
    const { dx, dy } = drag.current;
    setPreset(null);
    setState((s) => ({ ...s, qr: clampQr({ x: p.x - dx, y: p.y - dy }) }));
  };
  const onPointerUp = () => {
    drag.current = null;
  };

  const download = async () => {
    if (!canvasRef.current) return;
    setBusy(true);
    try {
      renderPoster(canvasRef.current, state, background, link, caption);
      const url = URL.createObjectURL(await canvasToPngBlob(canvasRef.current));
      downloadUrl(url, safeFileName(`${app.name}-poster`, "png"));
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch {
      message.error(t("poster_editor.download_failed"));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="console__page poster-editor" data-testid="poster-editor">
      <h1 className="console__title">{t("poster_editor.title", { name: app.name })}</h1>
      <div className="poster-editor__body">
        <div className="poster-editor__preview">
          <canvas
            ref={canvasRef}
            width={POSTER_WIDTH}
            height={POSTER_HEIGHT}
            className="poster-editor__canvas"
            data-testid="poster-canvas"
            data-qr-x={state.qr.x}
            data-qr-y={state.qr.y}
            aria-label={t("poster_editor.preview")}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={onPointerUp}
          />
          <Typography.Text type="secondary" className="poster-editor__hint">
            {t("poster_editor.drag_hint")}
          </Typography.Text>
        </div>
        <Card className="poster-editor__controls">
          <Form layout="vertical">
            <Form.Item label={t("poster_editor.background")}>
              <div className="poster-editor__backgrounds">
                {backgrounds.map((b) => (
                  <button
                    type="button"
                    key={b.key}
                    className={`poster-editor__bg${state.backgroundUrl === b.url ? " poster-editor__bg--active" : ""}`}
                    style={{ backgroundImage: `url(${JSON.stringify(b.url)})` }}
                    onClick={() => pickBackground(b)}
                    aria-label={t(`poster_editor.backgrounds.${b.key}`)}
                    title={t(`poster_editor.backgrounds.${b.key}`)}
                    data-testid={`poster-bg-${b.key}`}
                  >
                    {state.backgroundUrl === b.url && <CheckOutlined />}
                  </button>
                ))}
                <Upload accept={IMAGE_ACCEPT} showUploadList={false} beforeUpload={upload.beforeUpload} customRequest={upload.customRequest}>
                  <Button icon={<UploadOutlined />} loading={upload.busy} data-testid="poster-upload">
                    {t("poster_editor.upload")}
                  </Button>
                </Upload>
              </div>
              <Typography.Text type="secondary" className="share-panel__hint">
                {t("poster_editor.upload_hint")}
              </Typography.Text>
            </Form.Item>
            <Form.Item label={t("poster_editor.title_text")}>
              <div className="poster-editor__text-row">
                <Input value={state.title} maxLength={40} onChange={(e) => setState((s) => ({ ...s, title: e.target.value }))} data-testid="poster-title" />
                <ColorPicker
                  value={state.titleColor}
                  disabledAlpha
                  onChange={(c) => setState((s) => ({ ...s, titleColor: c.toHexString() }))}
                  aria-label={t("poster_editor.title_color")}
                />
              </div>
            </Form.Item>
            <Form.Item label={t("poster_editor.subtitle_text")}>
              <div className="poster-editor__text-row">
                <Input.TextArea
                  value={state.subtitle}
                  maxLength={80}
                  autoSize={{ minRows: 2, maxRows: 4 }}
                  onChange={(e) => setState((s) => ({ ...s, subtitle: e.target.value }))}
                  data-testid="poster-subtitle"
                />
                <ColorPicker
                  value={state.subtitleColor}
                  disabledAlpha
                  onChange={(c) => setState((s) => ({ ...s, subtitleColor: c.toHexString() }))}
                  aria-label={t("poster_editor.subtitle_color")}
                />
              </div>
            </Form.Item>
            <Form.Item label={t("poster_editor.qr_position")}>
              <Segmented<TQrPreset>
                block
                value={preset ?? undefined}
                onChange={(p) => {
                  setPreset(p);
                  setState((s) => ({ ...s, qr: placeQr(p) }));
                }}
                options={QR_PRESETS.map((p) => ({ value: p, label: <span data-testid={`poster-preset-${p}`}>{t(`poster_editor.presets.${p}`)}</span> }))}
              />
            </Form.Item>
            <Button type="primary" block icon={<DownloadOutlined />} loading={busy} onClick={() => void download()} data-testid="poster-download">
              {t("poster_editor.download")}
            </Button>
          </Form>
        </Card>
      </div>
    </div>
  );
}
