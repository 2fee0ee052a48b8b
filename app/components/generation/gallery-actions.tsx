// What a gallery card offers, by the job's state: retry a failed one (a new job with the same
// request), use a finished picture or video in an app, animate a picture on the video screen, and
// delete a finished job from the gallery (its pictures and videos stay in the library).
import { AppstoreAddOutlined, DeleteOutlined, RedoOutlined, VideoCameraAddOutlined } from "@ant-design/icons";
import { App, Button } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../app-link";
import { withChoice } from "../media/return-path";
import { isRunning, type TMediaJob } from "./generation-client";

export type TGalleryHandlers = {
  busyId: string | null;
  onRetry: (job: TMediaJob) => void;
  onRemove: (job: TMediaJob) => void;
  onUseInApp: (job: TMediaJob) => void;
};

export function useGalleryActions({ busyId, onRetry, onRemove, onUseInApp }: TGalleryHandlers) {
  const { t } = useTranslation("generation");
  const { modal } = App.useApp();
  const confirmRemove = (job: TMediaJob) =>
    modal.confirm({
      title: t("remove.title"),
      content: t("remove.body"),
      okText: t("actions.delete"),
      okButtonProps: { danger: true },
      cancelText: t("actions.cancel"),
      onOk: () => onRemove(job),
    });

  return (job: TMediaJob) => {
    const busy = busyId === job.id;
    // Only picture and video jobs can be started again with the same request.
    const retriable = (job.state === "failed" || job.state === "failed_review") && (job.kind === "image" || job.kind === "video");
    const usable = job.state === "done" && (job.kind === "image" || job.kind === "video") && job.outputs.some((o) => o.mediaItemId);
    const firstPicture = job.kind === "image" && job.state === "done" ? job.outputs.find((o) => o.mediaItemId) : undefined;
    return [
      retriable && (
        <Button key="retry" type="link" size="small" icon={<RedoOutlined />} loading={busy} onClick={() => onRetry(job)} data-testid="generation-retry">
          {t("actions.retry")}
        </Button>
      ),
      usable && (
        <Button key="use" type="link" size="small" icon={<AppstoreAddOutlined />} onClick={() => onUseInApp(job)} data-testid="generation-use-in-app">
          {t("actions.use_in_app")}
        </Button>
      ),
      firstPicture?.mediaItemId && (
        <AppLink key="animate" to={withChoice("/video_generation", { id: firstPicture.mediaItemId, url: firstPicture.url })}>
          <Button type="link" size="small" icon={<VideoCameraAddOutlined />} data-testid="generation-animate">
            {t("actions.animate")}
          </Button>
        </AppLink>
      ),
      !isRunning(job) && (
        <Button
          key="delete"
          type="link"
          size="small"
          danger
          icon={<DeleteOutlined />}
          disabled={busy}
          onClick={() => confirmRemove(job)}
          data-testid="generation-delete"
        >
          {t("actions.delete")}
        </Button>
      ),
    ].filter(Boolean) as JSX.Element[];
  };
}
