// "Use in an app": choose one of my apps (and, for a job with several pictures, which one, and for a
// square picture whether it is the icon or the background) and go to that app's editor with the
// picture chosen, answered the way the library's picker answers an editor (media_id and media_url in
// the query, media_slot for the field). No app type has a video field, so a video is refused here.
import { Alert, Button, Empty, Modal, Radio, Select, Skeleton } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppLink, useAppNavigate } from "../app-link";
import { errorText } from "../../lib/api-client";
import { withChoice } from "../media/return-path";
import type { TAppView } from "../../../server/apps/apps.schema";
import { appEditorPath, generationApi, type TMediaJob } from "./generation-client";

type TSlot = "background" | "icon";

/** An icon is shown square at 200x200: only a square picture of 200 px or more may be one. */
export function canBeIcon(output: { width: number | null; height: number | null } | undefined) {
  return Boolean(output?.width && output.width === output.height && output.width >= 200);
}

function editorPathFor(app: TAppView, output: { mediaItemId: string; url: string }, slot: TSlot) {
  const url = new URL(withChoice(appEditorPath(app), { id: output.mediaItemId, url: output.url }), "http://this.site");
  if (slot === "icon") url.searchParams.set("media_slot", "icon");
  return `${url.pathname}${url.search}`;
}

export function UseInAppModal({ job, onClose }: { job: TMediaJob | null; onClose: () => void }) {
  const { t } = useTranslation("generation");
  const navigate = useAppNavigate();
  const [apps, setApps] = useState<TAppView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [appId, setAppId] = useState<string | null>(null);
  const [outputIndex, setOutputIndex] = useState(0);
  const [slot, setSlot] = useState<TSlot>("background");
  const open = Boolean(job);

  useEffect(() => {
    if (!open) return;
    let live = true;
    setOutputIndex(0);
    setSlot("background");
    generationApi.listApps().then(
      (list) => {
        if (!live) return;
        setApps(list);
        setAppId((id) => id ?? list[0]?.id ?? null);
      },
      (err: unknown) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, [open]);

  const outputs = (job?.outputs ?? []).filter((o) => o.mediaItemId);
  const output = outputs[outputIndex] ?? outputs[0];
  const app = apps?.find((a) => a.id === appId);
  const isVideo = job?.kind === "video";
  const iconable = canBeIcon(output);
  const go = () =>
    app && output?.mediaItemId && navigate(editorPathFor(app, { mediaItemId: output.mediaItemId, url: output.url }, iconable ? slot : "background"));

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t("use_in_app.title")}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t("actions.cancel")}
        </Button>,
        <Button key="go" type="primary" disabled={!app || !output || isVideo} onClick={go} data-testid="generation-use-in-app-go">
          {t("use_in_app.go")}
        </Button>,
      ]}
    >
      <p className="console__hint">{t("use_in_app.hint")}</p>
      {isVideo ? (
        <Alert type="warning" showIcon message={t("use_in_app.video_refused")} data-testid="generation-use-in-app-video" />
      ) : error ? (
        <Alert type="error" showIcon message={error} />
      ) : !apps ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : apps.length === 0 ? (
        <Empty description={t("use_in_app.no_apps")}>
          <AppLink to="/create_app">
            <Button>{t("use_in_app.create_app")}</Button>
          </AppLink>
        </Empty>
      ) : (
        <div className="generation-use">
          <Select
            className="generation-use__app"
            value={appId ?? undefined}
            onChange={setAppId}
            options={apps.map((a) => ({ value: a.id, label: `${a.name} · ${t(`apps:type.${a.type}`)}` }))}
            data-testid="generation-use-in-app-app"
          />
          {outputs.length > 1 && (
            <Radio.Group
              value={outputIndex}
              onChange={(e) => setOutputIndex(Number(e.target.value))}
              optionType="button"
              className="generation-choices"
              options={outputs.map((_, i) => ({ value: i, label: t("use_in_app.output_nth", { n: i + 1 }) }))}
            />
          )}
          {iconable && (
            <div className="generation-use__slot">
              <span>{t("use_in_app.slot")}</span>
              <Radio.Group
                value={slot}
                onChange={(e) => setSlot(e.target.value as TSlot)}
                optionType="button"
                options={(["background", "icon"] as const).map((s) => ({ value: s, label: t(`use_in_app.slot_${s}`) }))}
                data-testid="generation-use-in-app-slot"
              />
            </div>
          )}
        </div>
      )}
      {outputs.length === 0 && open && <Alert type="warning" showIcon message={t("use_in_app.not_in_library")} />}
    </Modal>
  );
}
