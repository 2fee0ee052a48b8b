// Generation jobs in tests: accounts that may use the library, media models on a provider's fake
// channel, library pictures, and the job's ledger lines.
import crypto from "node:crypto";
import { expect } from "vitest";
import { getDb } from "../../server/db/client";
import { mapError } from "../../server/errors/map-error";
import { sealSecret } from "../../server/lib/secret-box";
import { handleMediaDispatch, handleMediaPoll } from "../../server/media/media-job-runner";
import { uploadMedia } from "../../server/media/media.service";
import { fundAccount } from "./money";
import { makePng } from "./png";

const run = crypto.randomBytes(3).toString("hex");
let n = 0;

/** A professional account (the library is theirs to use) with `funds` micro-Z of coins. */
export async function makeMediaUser(funds = 50_000_000) {
  const row = await getDb().account.create({
    data: {
      account: `mj${run}${++n}`,
      nickname: `Maker ${n}`,
      roles: ["individual_developer"] as never,
      edition: "professional",
      editionExpiresAt: new Date(Date.now() + 30 * 86_400_000),
    },
    select: { id: true },
  });
  if (funds > 0) await fundAccount(row.id, funds, "spendable");
  return { id: row.id };
}

/** A model of `kind` named by the provider's upstream name, served by a platform channel of `type` at `baseUrl`. */
export async function addMediaModel(o: {
  kind: "image" | "video" | "voice";
  upstream: string;
  type: string;
  baseUrl: string;
  secret: string;
  unitPriceMicro: number;
}) {
  const key = `${o.upstream}-${run}-${++n}`;
  await getDb().model.create({ data: { key, displayName: `M${n}`, kind: o.kind, upstreamModel: o.upstream, unitPriceMicro: o.unitPriceMicro } });
  const channel = await getDb().channel.create({
    data: { name: `${o.type} ${n}`, type: o.type as never, baseUrl: o.baseUrl, keyEncrypted: sealSecret(o.secret), keyHint: "…", models: [key] },
    select: { id: true },
  });
  return { key, channelId: channel.id };
}

/** A 640x480 picture in the account's library. */
export async function addLibraryPicture(accountId: string, shade = 90) {
  const item = await uploadMedia({ id: accountId }, { bytes: makePng(640, 480, shade), filename: "frame.png", mime: "image/png" } as never, {});
  return item.id;
}

/** The account's spendable balance, in micro-Z. */
export async function balanceOf(accountId: string) {
  const row = await getDb().ledgerAccount.findUnique({ where: { id: `spendable:${accountId}` }, select: { balanceMicro: true } });
  return Number(row?.balanceMicro ?? 0);
}

/** The job's ledger transactions by kind, with the payer's amount in each. */
export async function jobPostings(jobId: string) {
  return getDb().ledgerTransaction.findMany({
    where: { idempotencyKey: { in: [`media-hold:${jobId}`, `media-settle:${jobId}`] } },
    select: { idempotencyKey: true, kind: true, entries: { select: { ledgerAccountId: true, amountMicro: true } } },
    orderBy: { createdAt: "asc" },
  });
}

export function jobRow(id: string) {
  return getDb().mediaJob.findUniqueOrThrow({ where: { id } });
}

/** Runs the job as the worker would: dispatches, then polls until it ends (or the step budget runs out). */
export async function runJobToEnd(jobId: string, steps = 10) {
  await handleMediaDispatch();
  for (let i = 0; i < steps; i++) {
    const row = await jobRow(jobId);
    if (["done", "failed", "failed_review"].includes(row.state)) return row;
    await handleMediaPoll({ jobId });
  }
  return jobRow(jobId);
}

/** The refusal the call ended in, as an English-speaking caller is answered. */
export async function refusalIn(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, "expected a refusal").toBeTruthy();
  return mapError(err, "en");
}

/**
 * The worker's media steps in this process, while a test waits on turns that submit jobs: takes
 * queued jobs and polls running ones until the returned stop() is awaited.
 */
export function runMediaWorkerSteps(only?: { ownerAccountId: string }) {
  let running = true;
  const loop = (async () => {
    while (running) {
      await handleMediaDispatch().catch(() => undefined);
      // A run of many test files shares one database: other files' unfinished jobs are left alone when asked.
      const started = await getDb().mediaJob.findMany({
        where: { state: { in: ["generating", "background"] }, providerTaskId: { not: null }, ...(only ?? {}) },
        select: { id: true },
      });
      for (const j of started) await handleMediaPoll({ jobId: j.id }).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 150));
    }
  })();
  return async () => {
    running = false;
    await loop;
  };
}
