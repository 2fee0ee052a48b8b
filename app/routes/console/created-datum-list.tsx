// /CreatedatumList: the upload form of the multimedia library. Choose up to 10 pictures or videos
// (10 files per form at most), name each, then upload them one after another, each row showing
// how it went. The roles of the four library pages: see multimedia.tsx.
import { InboxOutlined } from "@ant-design/icons";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { App, Button, Input, Tag, Upload } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { MediaLocked } from "../../components/media/media-locked";
import { loadMediaLibrary } from "../../components/media/media-loader.server";
import { MediaThumb } from "../../components/media/media-thumb";
import { checkMediaFile, fetchMediaQuota, uploadMediaFile, type TMediaQuota } from "../../components/media/media-client";
import { ApiError, errorText } from "../../lib/api-client";
import { displayFileName } from "../../lib/file-name";
import { MEDIA_NAME_MAX } from "../../../server/media/media.schema";
import { MEDIA_ACCEPT, MEDIA_IMAGE_LIMITS, MEDIA_UPLOADS_PER_DAY, MEDIA_VIDEO_LIMITS, PER_FORM, toMegabytes } from "../../../server/uploads/upload-limits";
import "../../components/media/media.css";

export const handle = { i18n: ["media"] };

export const loader = ({ request }: LoaderFunctionArgs) => loadMediaLibrary(request, { pageSize: 1 });

type TRow = { uid: string; file: File; name: string; preview: string; state: "pending" | "uploading" | "done" | "failed"; error?: string };
const STATE_COLOR = { pending: "default", uploading: "processing", done: "success", failed: "error" } as const;

export default function CreatedatumList() {
  const { t } = useTranslation("media");
  const loaded = useLoaderData<typeof loader>();
  return (
    <div className="media-page media-upload-form">
      <div className="media-page__head">
        <h1 className="console__title">{t("title.upload")}</h1>
        <AppLink to="/multimedia">
          <Button>{t("actions.back_to_library")}</Button>
        </AppLink>
      </div>
      {loaded.locked ? <MediaLocked message={loaded.locked} /> : <UploadForm quota0={loaded.quota as TMediaQuota} />}
    </div>
  );
}

function UploadForm({ quota0 }: { quota0: TMediaQuota }) {
  const { t } = useTranslation("media");
  const { t: te } = useTranslation("errors");
  const { message } = App.useApp();
  const [rows, setRows] = useState<TRow[]>([]);
  const [quota, setQuota] = useState(quota0);
  const [busy, setBusy] = useState(false);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  useEffect(() => () => rowsRef.current.forEach((r) => URL.revokeObjectURL(r.preview)), []);

  const patch = (uid: string, change: Partial<TRow>) => setRows((all) => all.map((r) => (r.uid === uid ? { ...r, ...change } : r)));
  const add = (file: File) => {
    const problem = checkMediaFile(file);
    if (problem) message.error(`${displayFileName(file.name)}: ${te(problem)}`);
    else
      setRows((all) => {
        if (all.filter((r) => r.state !== "done").length >= PER_FORM.manyFiles) {
          message.error(te("too_many_files", { max: PER_FORM.manyFiles }));
          return all;
        }
        return [
          ...all,
          {
            uid: `${file.name}-${file.size}-${Math.random()}`,
            file,
            name: Array.from(file.name).slice(0, MEDIA_NAME_MAX).join(""),
            preview: URL.createObjectURL(file),
            state: "pending",
          },
        ];
      });
    return false;
  };
  const remove = (row: TRow) => {
    URL.revokeObjectURL(row.preview);
    setRows((all) => all.filter((r) => r.uid !== row.uid));
  };
  const start = async () => {
    setBusy(true);
    let uploaded = 0;
    for (const row of rowsRef.current.filter((r) => r.state === "pending" || r.state === "failed")) {
      patch(row.uid, { state: "uploading", error: undefined });
      try {
        await uploadMediaFile(row.file, { name: row.name, fallbackError: te("upload_failed") });
        patch(row.uid, { state: "done" });
        uploaded++;
      } catch (err) {
        patch(row.uid, { state: "failed", error: errorText(err, te("upload_failed")) });
        // The day's allowance is used up: the rest would fail the same way.
        if (err instanceof ApiError && err.status === 420208) break;
      }
    }
    setQuota(await fetchMediaQuota().catch(() => quota));
    setBusy(false);
    if (uploaded) message.success(t("uploaded_count", { count: uploaded }));
  };
  const waiting = rows.filter((r) => r.state === "pending" || r.state === "failed").length;
  return (
    <>
      <p className="media-page__hint">
        {t("hint", { imageMb: toMegabytes(MEDIA_IMAGE_LIMITS.maxBytes), videoMb: toMegabytes(MEDIA_VIDEO_LIMITS.maxBytes), limit: MEDIA_UPLOADS_PER_DAY })}
      </p>
      <div data-testid="media-dropzone">
        <Upload.Dragger accept={MEDIA_ACCEPT} multiple showUploadList={false} beforeUpload={add} disabled={busy || !quota.remaining}>
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t("upload_form.drop")}</p>
          <p className="ant-upload-hint">
            {t("upload_form.limit", { count: PER_FORM.manyFiles })} ·{" "}
            {quota.remaining ? t("quota_today", { used: quota.used, limit: quota.limit }) : t("quota_full", { limit: quota.limit })}
          </p>
        </Upload.Dragger>
      </div>
      <ul className="media-upload-form__list">
        {rows.map((row) => (
          <li key={row.uid} className="media-upload-form__row" data-testid="media-upload-row">
            <MediaThumb
              item={{ kind: row.file.type.startsWith("video/") ? "video" : "image", url: row.preview, name: row.name }}
              className="media-thumb media-thumb--small"
            />
            <div>
              <Input
                value={row.name}
                maxLength={MEDIA_NAME_MAX}
                disabled={row.state !== "pending" && row.state !== "failed"}
                onChange={(e) => patch(row.uid, { name: e.target.value })}
                aria-label={t("name_label")}
                data-testid="media-upload-name"
              />
              <div className="media-upload-form__file" title={row.file.name}>
                {displayFileName(row.file.name)}
              </div>
            </div>
            <Tag color={STATE_COLOR[row.state]}>{t(`upload_form.${row.state}`)}</Tag>
            <Button type="link" size="small" onClick={() => remove(row)} disabled={row.state === "uploading"}>
              {t("actions.remove")}
            </Button>
            {row.error && <div className="media-upload-form__error">{row.error}</div>}
          </li>
        ))}
      </ul>
      <div className="media-upload-form__actions">
        <Button type="primary" onClick={start} loading={busy} disabled={!waiting || !quota.remaining} data-testid="media-upload-start">
          {t("actions.start_upload", { count: waiting })}
        </Button>
        {rows.length > 0 && !busy && <Button onClick={() => rows.forEach(remove)}>{t("actions.clear")}</Button>}
      </div>
    </>
  );
}
