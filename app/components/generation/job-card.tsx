// One generation as the screens show it: its state, the live progress while it runs, the pictures,
// video or speech when it is done (each with its download), the reason when it failed. An output that
// failed review is never shown nor offered for download: the job carries no outputs then.
import { DownloadOutlined } from "@ant-design/icons";
import { Alert, Button, Card, Progress, Tag } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { uiLocale } from "../../i18n/config";
import { formatZ } from "../../../server/money/money-format";
import type { TMediaJobState } from "../../../server/media/generation.schema";
import { isRunning, type TMediaJob, type TMediaJobOutput } from "./generation-client";

const STATE_COLORS: Record<TMediaJobState, string> = {
  queued: "default",
  generating: "processing",
  background: "purple",
  done: "success",
  failed: "error",
  failed_review: "warning",
};

export function JobStateTag({ state }: { state: TMediaJobState }) {
  const { t } = useTranslation("generation");
  return (
    <Tag color={STATE_COLORS[state]} data-testid="generation-job-state" data-state={state}>
      {t(`state.${state}`)}
    </Tag>
  );
}

/** A file name for a download: the job's kind, its id and the output's place, with the type's extension. */
function downloadName(job: TMediaJob, output: TMediaJobOutput, index: number) {
  const ext = output.mime.split("/")[1]?.replace("jpeg", "jpg").replace("mpeg", "mp3") ?? "bin";
  return `${job.kind}-${job.id.slice(-8)}${job.outputs.length > 1 ? `-${index + 1}` : ""}.${ext}`;
}

export function DownloadLink({ job, output, index }: { job: TMediaJob; output: TMediaJobOutput; index: number }) {
  const { t } = useTranslation("generation");
  const label = job.outputs.length > 1 ? t("actions.download_nth", { n: index + 1 }) : t("actions.download");
  return (
    <Button size="small" icon={<DownloadOutlined />} href={output.url} download={downloadName(job, output, index)} data-testid="generation-download">
      {label}
    </Button>
  );
}

function OutputView({ job, output, index }: { job: TMediaJob; output: TMediaJobOutput; index: number }) {
  const { t } = useTranslation("generation");
  const alt = t("output_alt", { n: index + 1, prompt: job.prompt.slice(0, 80) });
  if (output.mime.startsWith("video/"))
    return (
      <video
        className="generation-output__media"
        // Without a poster, #t=0.1 makes browsers show that frame instead of a black box.
        src={output.posterUrl ? output.url : `${output.url}#t=0.1`}
        poster={output.posterUrl ?? undefined}
        controls
        playsInline
        preload="metadata"
        aria-label={alt}
      />
    );
  if (output.mime.startsWith("audio/")) return <audio className="generation-output__audio" src={output.url} controls preload="none" aria-label={alt} />;
  return (
    <a href={output.url} target="_blank" rel="noreferrer" className="generation-output__link">
      <img className="generation-output__media" src={output.url} alt={alt} loading="lazy" />
    </a>
  );
}

function JobBody({ job, withDownloads }: { job: TMediaJob; withDownloads: boolean }) {
  const { t } = useTranslation("generation");
  const { t: te } = useTranslation("errors");
  if (isRunning(job))
    return (
      <div className="generation-job__running">
        <Progress percent={Math.max(0, Math.min(100, Math.round(job.progress)))} status="active" data-testid="generation-job-progress" />
        <div className="generation-job__note">{t(`running_note.${job.state}`)}</div>
      </div>
    );
  if (job.state === "failed_review") return <Alert type="warning" showIcon message={te("output_review_failed")} data-testid="generation-job-review" />;
  if (job.state === "failed")
    return (
      <Alert
        type="error"
        showIcon
        message={job.errorCode ? te(job.errorCode, { defaultValue: t("failed_generic") }) : t("failed_generic")}
        data-testid="generation-job-error"
      />
    );
  return (
    <ul className={`generation-outputs generation-outputs--${Math.min(job.outputs.length, 4)}`}>
      {job.outputs.map((output, i) => (
        <li key={output.url} className="generation-output">
          <OutputView job={job} output={output} index={i} />
          {withDownloads && <DownloadLink job={job} output={output} index={i} />}
        </li>
      ))}
    </ul>
  );
}

export function JobCard({
  job,
  modelName,
  actions,
  withDownloads = true,
}: {
  job: TMediaJob;
  modelName?: string;
  actions?: ReactNode[];
  withDownloads?: boolean;
}) {
  const { t, i18n } = useTranslation("generation");
  const when = new Intl.DateTimeFormat(uiLocale(i18n.language), { dateStyle: "medium", timeStyle: "short" }).format(new Date(job.createdAt));
  const z = (micro: number) => t("common:money.z", { amount: formatZ(micro) });
  // A running job's price is held; a finished one is charged only when it succeeded.
  const money = isRunning(job)
    ? t("price_held", { price: z(job.priceMicro) })
    : job.chargedMicro > 0
      ? t("charged", { price: z(job.chargedMicro) })
      : t("not_charged");
  return (
    <Card className="generation-job" size="small" data-testid="generation-job" data-job-id={job.id} data-state={job.state}>
      <div className="generation-job__head">
        <JobStateTag state={job.state} />
        <span className="generation-job__kind">{t(`kind.${job.kind}`)}</span>
        <span className="generation-job__model">{modelName ?? job.model}</span>
      </div>
      {job.prompt && <p className="generation-job__prompt">{job.prompt}</p>}
      <JobBody job={job} withDownloads={withDownloads} />
      <div className="generation-job__meta">
        <span>{when}</span>
        <span data-testid="generation-job-money">{money}</span>
      </div>
      {actions && actions.length > 0 && <div className="generation-job__actions">{actions}</div>}
    </Card>
  );
}
