// Beside the drawing and video forms: the jobs of that kind started lately, the newest first, each
// followed live until it finishes. A running job can be left to go on in the background; a finished
// one is also in the gallery.
import { AppstoreOutlined, RedoOutlined } from "@ant-design/icons";
import { App, Button, Empty } from "antd";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { AppLink } from "../app-link";
import { useMutation } from "../../lib/use-mutation";
import { generationApi, isRunning, type TMediaJob, type TMediaModel } from "./generation-client";
import { JobCard } from "./job-card";

/** Brings a just-started job into view: on a phone the results are below the form. */
export function revealJob(id: string) {
  setTimeout(() => document.querySelector(`[data-job-id="${CSS.escape(id)}"]`)?.scrollIntoView({ block: "nearest", behavior: "smooth" }), 50);
}

/** How many earlier jobs the screen shows when it opens. */
const RECENT = 3;

export function RecentJobs({
  kind,
  models,
  live,
}: {
  kind: "image" | "video";
  models: TMediaModel[];
  live: { jobs: TMediaJob[]; put: (...jobs: TMediaJob[]) => void };
}) {
  const { t } = useTranslation("generation");
  const { message } = App.useApp();
  const { put, jobs } = live;

  useEffect(() => {
    // The screen works without them: a list that cannot be read leaves the panel empty.
    generationApi.listJobs({ kind, page: 1, pageSize: RECENT }).then(
      (page) => put(...page.items),
      () => {},
    );
  }, [kind, put]);

  const act = useMutation(async (_id: string, run: () => Promise<TMediaJob>, done?: string) => {
    put(await run());
    if (done) void message.success(done);
  });

  const actionsOf = (job: TMediaJob) => [
    (job.state === "queued" || job.state === "generating") && (
      <Button
        key="background"
        type="link"
        size="small"
        loading={act.busyKey === job.id}
        onClick={() => void act.run(job.id, () => generationApi.backgroundJob(job.id), t("background_done"))}
        data-testid="generation-background"
      >
        {t("actions.background")}
      </Button>
    ),
    (job.state === "failed" || job.state === "failed_review") && (
      <Button
        key="retry"
        type="link"
        size="small"
        icon={<RedoOutlined />}
        loading={act.busyKey === job.id}
        onClick={() => void act.run(job.id, () => generationApi.retryJob(job.id))}
        data-testid="generation-retry"
      >
        {t("actions.retry")}
      </Button>
    ),
    !isRunning(job) && (
      <AppLink key="gallery" to={`/generations?kind=${kind}`}>
        <Button type="link" size="small" icon={<AppstoreOutlined />}>
          {t("actions.open_gallery")}
        </Button>
      </AppLink>
    ),
  ];

  return (
    <section className="generation-results" aria-label={t("results.title")} data-testid="generation-results">
      <div className="generation-results__head">
        <h2 className="generation-results__title">{t("results.title")}</h2>
        <AppLink to={`/generations?kind=${kind}`}>{t("results.all")}</AppLink>
      </div>
      {jobs.length === 0 ? (
        <Empty description={t(`results.empty.${kind}`)} />
      ) : (
        <div className="generation-results__list">
          {jobs.map((job) => (
            <JobCard
              key={job.id}
              job={job}
              modelName={models.find((m) => m.key === job.model)?.name}
              actions={actionsOf(job).filter(Boolean) as JSX.Element[]}
            />
          ))}
        </div>
      )}
    </section>
  );
}
