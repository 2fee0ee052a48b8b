// Exports of an app's dialogues to xlsx (from /application): the owner asks, the `apps.export` job
// writes the file through the file store, the owner polls and downloads. The job is enqueued after
// the row is committed (never inside a transaction); a failure leaves a retryable "failed" row.
import type { Job } from "bullmq";
import { AppError } from "../errors/app-error";
import { getT } from "../i18n/translate";
import { JOBS, enqueueJob } from "../jobs/jobs";
import { getQueue } from "../jobs/queue";
import { logger } from "../lib/logger";
import { getFileStore } from "../uploads/file-store";
import { storeFile } from "../uploads/uploads.service";
import * as dataRepo from "./app-data.repository";
import * as repo from "./app-export.repository";
import { ZDialogueFilters, type TAppExportRef, type TAppExportView, type TAppRef, type TDialogueFilters, type TStartAppExportInput } from "./app-data.schema";
import { describeUser, getOwnedApp, type TDataActor } from "./app-data.service";
import { writeExportWorkbook, type TExportRow } from "./app-export.workbook";

const EXPORT_QUEUE = JOBS["apps.export"].queue;
const PAGE = 200;
const XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const jobIdOf = (exportId: string) => `app-export-${exportId}`;

/** Only the account that asked for an export sees it; anyone else gets not_found. */
async function getOwnedExport(actor: TDataActor, exportId: string) {
  const row = await repo.findExportById(exportId);
  if (!row || row.accountId !== actor.id) throw new AppError("not_found");
  // The app must still be the actor's (an app handed over or deleted takes its exports along).
  await getOwnedApp(actor, row.appId);
  return row;
}

async function readProgress(row: repo.TAppExportRow) {
  if (row.state === "done") return 100;
  if (row.state !== "running") return 0;
  const job = await getQueue(EXPORT_QUEUE)
    .getJob(jobIdOf(row.id))
    .catch(() => null);
  return typeof job?.progress === "number" ? Math.max(0, Math.min(99, Math.round(job.progress))) : 0;
}

async function toView(row: repo.TAppExportRow): Promise<TAppExportView> {
  return {
    id: row.id,
    state: row.state,
    progress: await readProgress(row),
    row_count: row.rowCount,
    error: row.error,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
    download_url: row.state === "done" && row.fileKey ? `/api/v1/app/exports/${encodeURIComponent(row.id)}/download` : null,
  };
}

export async function startAppExport(actor: TDataActor, { appId, filters }: TStartAppExportInput, lng: string): Promise<TAppExportView> {
  const app = await getOwnedApp(actor, appId);
  const row = await repo.insertExport({ appId: app.id, accountId: actor.id, filters });
  try {
    await enqueueJob("apps.export", { exportId: row.id, lng }, { jobId: jobIdOf(row.id) });
  } catch (err) {
    // Nothing will pick it up: say so on the row rather than leave it pending forever.
    logger.error({ err, exportId: row.id }, "could not enqueue an app export");
    await repo.finishExport(row.id, { state: "failed", error: "system_busy" });
    throw new AppError("system_busy", { cause: err });
  }
  return toView(row);
}

export async function getAppExport(actor: TDataActor, { exportId }: TAppExportRef): Promise<TAppExportView> {
  return toView(await getOwnedExport(actor, exportId));
}

export async function listAppExports(actor: TDataActor, { appId }: TAppRef): Promise<TAppExportView[]> {
  const app = await getOwnedApp(actor, appId);
  return Promise.all((await repo.listExportsOf(app.id, actor.id, 10)).map(toView));
}

/** The finished file, for its owner only. */
export async function readAppExportFile(actor: TDataActor, exportId: string) {
  const row = await getOwnedExport(actor, exportId);
  if (row.state !== "done" || !row.fileKey) throw new AppError("not_found");
  const file = await getFileStore().get(row.fileKey);
  if (!file) throw new AppError("not_found");
  const app = await dataRepo.findAppForData(row.appId);
  const day = row.createdAt.toISOString().slice(0, 10).replaceAll("-", "");
  return { stream: file.stream, size: file.size, mime: XLSX_MIME, filename: `${app?.name ?? "app"}-${day}.xlsx` };
}

/** The job: every dialogue the filters select, a row per message, oldest first. */
export async function runAppExport(payload: { exportId: string; lng: string }, job?: Pick<Job, "updateProgress">) {
  const row = await repo.findExportById(payload.exportId);
  if (!row || !(await repo.claimExport(row.id))) return "skipped";
  try {
    const filters: TDialogueFilters = ZDialogueFilters.parse(row.filters);
    const total = await dataRepo.countDialogues(row.appId, filters);
    const rows: TExportRow[] = [];
    let after: { at: Date; id: string } | null = null;
    let done = 0;
    for (;;) {
      const page = await dataRepo.listDialoguesAfter(row.appId, filters, after, PAGE);
      if (!page.length) break;
      const messages = await dataRepo.listMessagesOf(page.map((d) => d.id));
      rows.push(...toExportRows(page, messages));
      after = { at: page[page.length - 1].createdAt, id: page[page.length - 1].id };
      done += page.length;
      await job?.updateProgress(Math.floor((done / Math.max(total, 1)) * 95));
      await repo.updateExportRows(row.id, rows.length);
    }
    const bytes = await writeExportWorkbook(rows, getT(payload.lng, "appdata"));
    const fileKey = await storeFile(`exports/${row.appId}`, { bytes, mime: XLSX_MIME, ext: "xlsx" });
    await repo.finishExport(row.id, { state: "done", rowCount: rows.length, fileKey, error: null });
    return "done";
  } catch (err) {
    logger.warn({ err, exportId: row.id }, "an app export failed");
    await repo.finishExport(row.id, { state: "failed", error: err instanceof AppError ? err.code : "internal_error" });
    return "failed";
  }
}

export function handleAppExport(payload: { exportId: string; lng: string }, job?: Job) {
  return runAppExport(payload, job);
}

/** Each dialogue's messages together, dialogues in export order, messages oldest first. */
function toExportRows(dialogues: dataRepo.TDataDialogueRow[], messages: Awaited<ReturnType<typeof dataRepo.listMessagesOf>>): TExportRow[] {
  const byDialogue = new Map<string, typeof messages>();
  for (const m of messages) byDialogue.set(m.dialogueId, [...(byDialogue.get(m.dialogueId) ?? []), m]);
  return dialogues.flatMap((d) =>
    (byDialogue.get(d.id) ?? []).map((m) => ({
      dialogueId: d.id,
      title: d.title,
      source: d.source ?? "",
      user: describeUser(d),
      at: m.createdAt,
      role: m.role,
      content: m.status === "censored" ? "" : m.content,
      feedback: m.feedback,
    })),
  );
}
