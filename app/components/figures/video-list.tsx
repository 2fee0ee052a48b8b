// The digital-human videos section of /digital: each video with its picture (the rendered video's
// poster, else its figure's keyed still), its state (a draft, rendering with its progress, done,
// failed with the reason), and edit, watch and delete; a running render is asked about again until
// it ends. The editor is /CreateAppDigital.
import { DeleteOutlined, EditOutlined, PlayCircleOutlined, PlusOutlined, VideoCameraOutlined } from "@ant-design/icons";
import { App, Button, Empty, Popconfirm, Skeleton, Tag, Tooltip } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../app-link";
import { callTrpc, trpc } from "../../lib/trpc";
import { useLoadedList } from "../../lib/use-loaded-list";
import { useMutation } from "../../lib/use-mutation";
import { CardLink, FiguresCardFrame } from "./figures-card-frame";
import type { TVideoListItem } from "../../../server/digital/videos.schema";

const VIDEO_POLL_MS = 3000;
const RUNNING = ["queued", "generating", "background"];
const isRendering = (video: TVideoListItem) => video.state !== null && RUNNING.includes(video.state);

const videosApi = {
  list: async () => (await callTrpc(() => trpc.digitalVideos.list.query())).items,
  remove: (id: string) => callTrpc(() => trpc.digitalVideos.remove.mutate({ id })),
};

function VideoStateTag({ video }: { video: TVideoListItem }) {
  const { t } = useTranslation("figures");
  const { t: te } = useTranslation("errors");
  if (isRendering(video)) return <Tag color="processing">{t("videos.state_rendering", { progress: Math.round(video.progress) })}</Tag>;
  if (video.state === "done") return <Tag color="success">{t("videos.state_done")}</Tag>;
  if (video.state === "failed" || video.state === "failed_review")
    return (
      <Tooltip title={video.errorCode ? te(video.errorCode, { defaultValue: t("videos.state_failed") }) : undefined}>
        <Tag color="error">{t("videos.state_failed")}</Tag>
      </Tooltip>
    );
  return <Tag>{t("videos.state_draft")}</Tag>;
}

function VideoCard({ video, busy, onDelete }: { video: TVideoListItem; busy: boolean; onDelete: () => void }) {
  const { t } = useTranslation("figures");
  const picture = video.output?.posterUrl ?? video.figure?.posterUrl ?? null;
  const actions = [
    <CardLink key="edit" to={`/CreateAppDigital?video=${encodeURIComponent(video.id)}`} icon={<EditOutlined />} label={t("videos.edit")} testId="video-edit" />,
    video.output && (
      <Tooltip key="watch" title={t("videos.watch")}>
        <a href={video.output.url} target="_blank" rel="noreferrer" aria-label={t("videos.watch")} className="figures-card__action" data-testid="video-watch">
          <PlayCircleOutlined />
        </a>
      </Tooltip>
    ),
    <Popconfirm key="delete" title={t("videos.delete_confirm", { name: video.name })} okText={t("videos.delete")} onConfirm={onDelete}>
      <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t("videos.delete")} loading={busy} data-testid="video-delete" />
    </Popconfirm>,
  ].filter(Boolean);
  return (
    <FiguresCardFrame
      testId="video-card"
      id={video.id}
      orientation={video.orientation}
      checker={!video.output}
      picture={
        picture ? (
          <img src={picture} alt={video.name} className="figures-card__poster" />
        ) : (
          <VideoCameraOutlined className="figures-card__placeholder" aria-hidden />
        )
      }
      name={video.name}
      meta={
        <>
          <VideoStateTag video={video} />
          {video.figure && <span className="figures-card__figure">{video.figure.name}</span>}
        </>
      }
      actions={actions}
    />
  );
}

export function VideoList() {
  const { t } = useTranslation("figures");
  const { message } = App.useApp();
  const { items: videos, error, load } = useLoadedList(videosApi.list, { while: isRendering, everyMs: VIDEO_POLL_MS });
  const remove = useMutation(async (id: string) => {
    await videosApi.remove(id);
    void message.success(t("videos.deleted"));
    await load();
  });
  return (
    <section aria-labelledby="videos-title" data-testid="videos-section">
      <div className="figures-section__head">
        <h2 id="videos-title" className="figures-section__title">
          {t("videos.title")}
        </h2>
        <AppLink to="/CreateAppDigital">
          <Button icon={<PlusOutlined />} data-testid="videos-create">
            {t("videos.create")}
          </Button>
        </AppLink>
      </div>
      {error && <div className="figures-field__error">{error}</div>}
      {videos === null ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : videos.length === 0 ? (
        <Empty className="figures-empty" description={t("videos.empty")} data-testid="videos-empty" />
      ) : (
        <ul className="figures-grid" data-testid="videos-grid">
          {videos.map((video) => (
            <li key={video.id} className="figures-grid__cell">
              <VideoCard video={video} busy={remove.busyKey === video.id} onDelete={() => void remove.run(video.id)} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
