// /generations: the gallery of my generations (?kind=image|video|speech filters), newest first, a
// page at a time. Each card shows its state, the live progress of a running job, the reason a job
// failed, and what it offers: download, use in an app, retry, delete.
import { useSearchParams } from "@remix-run/react";
import { Alert, App, Empty, Pagination, Segmented, Skeleton } from "antd";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useMutation } from "../../lib/use-mutation";
import { errorText } from "../../lib/api-client";
import { useGalleryActions } from "../../components/generation/gallery-actions";
import { generationApi, type TMediaJob } from "../../components/generation/generation-client";
import { JobCard } from "../../components/generation/job-card";
import { UseInAppModal } from "../../components/generation/use-in-app-modal";
import { useLiveJobs } from "../../components/generation/use-live-jobs";
import type { TMediaJobKind } from "../../../server/media/generation.schema";
import "../../components/generation/generation.css";

export const handle = { i18n: ["generation", "apps"] };

const TABS = ["all", "image", "video", "speech"] as const;
type TTab = (typeof TABS)[number];
const PAGE_SIZE = 12;

/** The models' names by key, for the cards (a job names its model by key); keys are shown until they load. */
function useModelNames() {
  const [names, setNames] = useState(new Map<string, string>());
  useEffect(() => {
    let live = true;
    Promise.all([generationApi.listModels("image"), generationApi.listModels("video")]).then(
      (lists) => live && setNames(new Map(lists.flat().map((m) => [m.key, m.name]))),
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);
  return names;
}

function readTab(value: string | null): TTab {
  return (TABS as readonly string[]).includes(value ?? "") ? (value as TTab) : "all";
}

/** The gallery's page of jobs, its filter and page kept in the query, each running job followed live. */
function useGalleryPage() {
  const [params, setParams] = useSearchParams();
  const tab = readTab(params.get("kind"));
  const page = Math.max(1, Number(params.get("page")) || 1);
  const live = useLiveJobs();
  const { replaceAll } = live;
  const [total, setTotal] = useState<number | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const kind = tab === "all" ? undefined : (tab as TMediaJobKind);
      const res = await generationApi.listJobs({ kind, page, pageSize: PAGE_SIZE });
      // A page emptied by a delete falls back to the last page that has jobs.
      if (!res.items.length && res.total && page > 1) return setParams((p) => (p.set("page", String(Math.ceil(res.total / PAGE_SIZE))), p), { replace: true });
      replaceAll(res.items);
      setTotal(res.total);
      setLoadError(null);
    } catch (err) {
      setLoadError(errorText(err));
      setTotal(0);
    }
  }, [tab, page, replaceAll, setParams]);
  useEffect(() => void load(), [load]);

  const go = (next: { kind?: TTab; page?: number }) =>
    setParams(
      (p) => {
        const kind = next.kind ?? tab;
        if (kind === "all") p.delete("kind");
        else p.set("kind", kind);
        if ((next.page ?? 1) > 1) p.set("page", String(next.page));
        else p.delete("page");
        return p;
      },
      { preventScrollReset: true },
    );
  return { tab, page, go, live, total, loadError, load };
}

export default function GenerationsPage() {
  const { t } = useTranslation("generation");
  const { message } = App.useApp();
  const { tab, page, go, live, total, loadError, load } = useGalleryPage();
  const [using, setUsing] = useState<TMediaJob | null>(null);
  const modelNames = useModelNames();

  const act = useMutation(async (_id: string, run: () => Promise<void>) => run());
  const actionsOf = useGalleryActions({
    busyId: act.busyKey,
    onRetry: (job) =>
      void act.run(job.id, async () => {
        live.put(await generationApi.retryJob(job.id));
        void message.success(t("retried"));
      }),
    onRemove: (job) =>
      void act.run(job.id, async () => {
        await generationApi.removeJob(job.id);
        void message.success(t("remove.done"));
        await load();
      }),
    onUseInApp: setUsing,
  });

  return (
    <div className="generation-page" data-testid="generations-page">
      <h1 className="console__title">{t("title.generations")}</h1>
      <p className="console__hint">{t("intro.generations")}</p>
      <div className="generation-gallery__tabs">
        <Segmented<TTab>
          value={tab}
          onChange={(k) => go({ kind: k })}
          options={TABS.map((k) => ({ value: k, label: <span data-testid={`generations-tab-${k}`}>{t(`tabs.${k}`)}</span> }))}
        />
      </div>
      {loadError && <Alert type="error" showIcon message={loadError} className="generation-gallery__error" />}
      {total === null ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : live.jobs.length === 0 ? (
        <Empty description={t(tab === "all" ? "gallery.empty" : "gallery.empty_kind")} data-testid="generations-empty" />
      ) : (
        <div className="generation-gallery" data-testid="generations-list">
          {live.jobs.map((job) => (
            <JobCard key={job.id} job={job} modelName={modelNames.get(job.model)} actions={actionsOf(job)} />
          ))}
        </div>
      )}
      {(total ?? 0) > PAGE_SIZE && (
        <div className="generation-gallery__pager">
          <Pagination current={page} pageSize={PAGE_SIZE} total={total ?? 0} onChange={(p) => go({ page: p })} showSizeChanger={false} />
        </div>
      )}
      <UseInAppModal job={using} onClose={() => setUsing(null)} />
    </div>
  );
}
