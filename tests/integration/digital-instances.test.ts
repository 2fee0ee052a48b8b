// Digital-human instances on the real database and file store: opening one charges the app's owner
// its first hour once (also when opened twice at once), an owner who cannot pay gets nothing written;
// the sweep charges each next hour once however many sweeps run, and stops idle instances, unpaid
// ones and those of closed apps; administrators list them with their billing, set the hourly price
// and delete one, which clears its files from the store; everyone else is refused.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { sweepInstances } from "../../server/digital/instance-billing";
import {
  DEFAULT_INSTANCE_HOUR_PRICE_MICRO,
  INSTANCE_IDLE_MS,
  getInstanceHourPrice,
  instanceHourKey,
  openInstance,
  recordInstanceFile,
  setInstanceHourPrice,
} from "../../server/digital/instances.service";
import { AppError } from "../../server/errors/app-error";
import { resetEnvCache } from "../../server/env";
import { getT } from "../../server/i18n/translate";
import { dropSingleton } from "../../server/lib/singleton";
import { getWallet } from "../../server/money/ledger.service";
import { reconcileLedger } from "../../server/money/reconciliation.service";
import { describeLine } from "../../server/money/statements/statements.format";
import { listStatement } from "../../server/money/statements/statements.service";
import { appRouter } from "../../server/trpc/app-router";
import { getFileStore } from "../../server/uploads/file-store";
import { makeAppOwner, type TTestActor } from "../helpers/apps";
import { fundAccount } from "../helpers/money";

const MIN = 60_000;
const PRICE = 2_000_000;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zl-digital-instances-"));
let priceBefore = DEFAULT_INSTANCE_HOUR_PRICE_MICRO;

beforeAll(async () => {
  process.env.DATA_DIR = dataDir;
  resetEnvCache();
  dropSingleton("file-store");
  priceBefore = await getInstanceHourPrice();
  await setInstanceHourPrice(null, { priceMicro: PRICE });
});
afterAll(async () => {
  await setInstanceHourPrice(null, { priceMicro: priceBefore });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const admin = appRouter.createCaller({ lng: "en", isPlatformAdmin: true, account: null });
const asAccount = (id: string) =>
  appRouter.createCaller({
    lng: "en",
    isPlatformAdmin: false,
    account: { id, roles: [], enterpriseId: null, account: "x", nickname: "x", avatarUrl: null, phone: null, edition: "basic" } as never,
  });

async function makeDigitalApp(owner: TTestActor, state: "on_shelf" | "under_review" | "off_shelf" | "removed" = "on_shelf") {
  const app = await getDb().app.create({
    data: {
      ownerAccountId: owner.id,
      type: "digital_human",
      state,
      name: `数字人 ${crypto.randomBytes(3).toString("hex")}`,
      iconUrl: "/files/images/test-icon.png",
      inputModes: ["text"],
      outputModes: ["text"],
    },
    select: { id: true, name: true },
  });
  return app;
}

/** An owner with exactly `micro` of gift credit (none when 0). */
async function makeOwner(micro: number) {
  const owner = await makeAppOwner({ funded: false });
  if (micro > 0) await fundAccount(owner.id, micro);
  return owner;
}

const instanceRow = (id: string) => getDb().digitalInstance.findUniqueOrThrow({ where: { id } });
const ledgerTx = (key: string) => getDb().ledgerTransaction.findUnique({ where: { idempotencyKey: key }, include: { entries: true } });
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e) => (e instanceof AppError ? e.code : e instanceof TRPCError ? e.code : String(e)),
  );

async function expectLedgerSound() {
  const r = await reconcileLedger();
  expect(r.unbalanced).toEqual([]);
  expect(r.mismatches).toEqual([]);
  expect(r.negative).toEqual([]);
}

describe("opening an instance", () => {
  it("starts one, charges the owner its first hour once, and reads well on the owner's statement", async () => {
    const owner = await makeOwner(10_000_000);
    const app = await makeDigitalApp(owner);
    const t0 = new Date();
    const { id } = await openInstance({ appId: app.id, ownerAccountId: owner.id, now: t0 });
    const row = await instanceRow(id);
    expect(row).toMatchObject({ state: "running", hoursBilled: 1, hourPriceMicro: BigInt(PRICE), chargedMicro: BigInt(PRICE), ownerAccountId: owner.id });
    expect(row.billedUntil.getTime()).toBe(t0.getTime() + 60 * MIN);
    expect((await getWallet(owner.id)).available).toBe(10_000_000 - PRICE);
    const posted = await ledgerTx(instanceHourKey(id, 1));
    expect(posted?.kind).toBe("metered_charge");
    expect(posted?.entries.reduce((s, e) => s + Number(e.amountMicro), 0)).toBe(0);
    expect(Object.fromEntries(posted!.entries.map((e) => [e.ledgerAccountId, Number(e.amountMicro)]))).toEqual({
      [`gift:${owner.id}`]: -PRICE,
      platform_revenue: PRICE,
    });

    const page = await listStatement(owner.id, "consumption", {});
    const line = page.items.find((l) => l.id === posted!.id)!;
    expect(line).toMatchObject({ type: "metered", amount_micro: -PRICE, app_id: app.id, app_name: app.name, what: "digital_instance" });
    expect(describeLine(line, getT("en", "statements"))).toContain("Digital-human instance");
    expect(describeLine(line, getT("zh_hans", "statements"))).toContain("数字人实例");
    await expectLedgerSound();
  });

  it("answers the running instance again, touching it at most once a minute, without charging again", async () => {
    const owner = await makeOwner(10_000_000);
    const app = await makeDigitalApp(owner);
    const t0 = new Date();
    const { id } = await openInstance({ appId: app.id, ownerAccountId: owner.id, now: t0 });
    expect((await openInstance({ appId: app.id, ownerAccountId: owner.id, now: new Date(t0.getTime() + 20_000) })).id).toBe(id);
    expect((await instanceRow(id)).lastActiveAt.getTime()).toBe(t0.getTime());
    const later = new Date(t0.getTime() + 5 * MIN);
    expect((await openInstance({ appId: app.id, ownerAccountId: owner.id, now: later })).id).toBe(id);
    expect((await instanceRow(id)).lastActiveAt.getTime()).toBe(later.getTime());
    expect((await getWallet(owner.id)).available).toBe(10_000_000 - PRICE);
  });

  it("makes one instance and one charge when opened many times at once", async () => {
    const owner = await makeOwner(10_000_000);
    const app = await makeDigitalApp(owner);
    const ids = await Promise.all(Array.from({ length: 6 }, () => openInstance({ appId: app.id, ownerAccountId: owner.id })));
    expect(new Set(ids.map((r) => r.id)).size).toBe(1);
    expect(await getDb().digitalInstance.count({ where: { appId: app.id } })).toBe(1);
    expect((await getWallet(owner.id)).available).toBe(10_000_000 - PRICE);
    await expectLedgerSound();
  });

  it("refuses an owner who cannot pay the first hour, writing nothing", async () => {
    const owner = await makeOwner(PRICE - 1);
    const app = await makeDigitalApp(owner);
    expect(await codeOf(openInstance({ appId: app.id, ownerAccountId: owner.id }))).toBe("app_owner_balance_insufficient");
    expect(await getDb().digitalInstance.count({ where: { appId: app.id } })).toBe(0);
    expect(await getDb().ledgerEntry.count({ where: { ledgerAccountId: { in: [`gift:${owner.id}`, `spendable:${owner.id}`] }, amountMicro: { lt: 0 } } })).toBe(
      0,
    );
    expect((await getWallet(owner.id)).available).toBe(PRICE - 1);
  });

  it("refuses apps that are not the owner's, not digital humans, closed or unknown as not found", async () => {
    const owner = await makeOwner(10_000_000);
    const other = await makeOwner(0);
    const app = await makeDigitalApp(owner);
    expect(await codeOf(openInstance({ appId: app.id, ownerAccountId: other.id }))).toBe("not_found");
    expect(await codeOf(openInstance({ appId: "no-such-app", ownerAccountId: owner.id }))).toBe("not_found");
    const closed = await makeDigitalApp(owner, "removed");
    expect(await codeOf(openInstance({ appId: closed.id, ownerAccountId: owner.id }))).toBe("not_found");
    // An app waiting for review opens for its owner's preview.
    const waiting = await makeDigitalApp(owner, "under_review");
    expect(await codeOf(openInstance({ appId: waiting.id, ownerAccountId: owner.id }))).toBeNull();
  });

  it("charges nothing at a free price", async () => {
    const owner = await makeOwner(0);
    const app = await makeDigitalApp(owner);
    await setInstanceHourPrice(null, { priceMicro: 0 });
    try {
      const { id } = await openInstance({ appId: app.id, ownerAccountId: owner.id });
      expect(await instanceRow(id)).toMatchObject({ hoursBilled: 1, chargedMicro: 0n, hourPriceMicro: 0n });
      expect(await ledgerTx(instanceHourKey(id, 1))).toBeNull();
    } finally {
      await setInstanceHourPrice(null, { priceMicro: PRICE });
    }
  });
});

describe("the sweep", () => {
  it("charges the next hour of a busy instance once, however many sweeps run, at the price it started with", async () => {
    const owner = await makeOwner(10_000_000);
    const app = await makeDigitalApp(owner);
    const t0 = new Date(Date.now() - 2 * 60 * MIN);
    const { id } = await openInstance({ appId: app.id, ownerAccountId: owner.id, now: t0 });
    await setInstanceHourPrice(null, { priceMicro: 5_000_000 });
    try {
      await openInstance({ appId: app.id, ownerAccountId: owner.id, now: new Date(t0.getTime() + 50 * MIN) });
      const at = new Date(t0.getTime() + 61 * MIN);
      const runs = await Promise.all([sweepInstances(at, [id]), sweepInstances(at, [id]), sweepInstances(at, [id])]);
      expect(runs.reduce((s, r) => s + r.charged, 0)).toBe(1);
      expect(await sweepInstances(at, [id])).toMatchObject({ charged: 0, idle: 0 });
      const row = await instanceRow(id);
      expect(row).toMatchObject({ state: "running", hoursBilled: 2, chargedMicro: BigInt(2 * PRICE) });
      expect(row.billedUntil.getTime()).toBe(t0.getTime() + 120 * MIN);
      expect(await ledgerTx(instanceHourKey(id, 2))).not.toBeNull();
      expect((await getWallet(owner.id)).available).toBe(10_000_000 - 2 * PRICE);
    } finally {
      await setInstanceHourPrice(null, { priceMicro: PRICE });
    }
    await expectLedgerSound();
  });

  it("stops an instance nobody used for half an hour, keeping its files", async () => {
    const owner = await makeOwner(10_000_000);
    const app = await makeDigitalApp(owner);
    const t0 = new Date(Date.now() - 60 * MIN);
    const { id } = await openInstance({ appId: app.id, ownerAccountId: owner.id, now: t0 });
    await recordInstanceFile(id, { fileKey: `media/${owner.id}/speech/${id}-a.mp3`, kind: "speech", bytes: 10 });
    expect(await sweepInstances(new Date(t0.getTime() + INSTANCE_IDLE_MS - 1000), [id])).toMatchObject({ idle: 0 });
    expect(await sweepInstances(new Date(t0.getTime() + INSTANCE_IDLE_MS + 1000), [id])).toMatchObject({ idle: 1 });
    expect(await instanceRow(id)).toMatchObject({ state: "stopped", stopReason: "idle", hoursBilled: 1 });
    expect(await getDb().digitalInstanceFile.count({ where: { instanceId: id } })).toBe(1);
    // The next visitor starts a new instance, with its own first hour.
    const next = await openInstance({ appId: app.id, ownerAccountId: owner.id });
    expect(next.id).not.toBe(id);
  });

  it("stops an instance whose owner cannot pay the next hour", async () => {
    const owner = await makeOwner(PRICE + PRICE / 2);
    const app = await makeDigitalApp(owner);
    const t0 = new Date(Date.now() - 2 * 60 * MIN);
    const { id } = await openInstance({ appId: app.id, ownerAccountId: owner.id, now: t0 });
    await openInstance({ appId: app.id, ownerAccountId: owner.id, now: new Date(t0.getTime() + 55 * MIN) });
    expect(await sweepInstances(new Date(t0.getTime() + 61 * MIN), [id])).toMatchObject({ unpaid: 1, charged: 0 });
    expect(await instanceRow(id)).toMatchObject({ state: "stopped", stopReason: "balance", hoursBilled: 1, chargedMicro: BigInt(PRICE) });
    expect(await ledgerTx(instanceHourKey(id, 2))).toBeNull();
    expect((await getWallet(owner.id)).available).toBe(PRICE / 2);
  });

  it("stops instances of apps taken off the shelf, removed or deleted", async () => {
    const owner = await makeOwner(10_000_000);
    const apps = await Promise.all([makeDigitalApp(owner), makeDigitalApp(owner), makeDigitalApp(owner), makeDigitalApp(owner)]);
    const ids = [];
    for (const app of apps) ids.push((await openInstance({ appId: app.id, ownerAccountId: owner.id })).id);
    await getDb().app.update({ where: { id: apps[0].id }, data: { state: "off_shelf" } });
    await getDb().app.update({ where: { id: apps[1].id }, data: { state: "removed", removedAt: new Date() } });
    await getDb().app.update({ where: { id: apps[2].id }, data: { deletedAt: new Date() } });
    expect(await sweepInstances(new Date(), ids)).toMatchObject({ closed: 3 });
    for (const id of ids.slice(0, 3)) expect(await instanceRow(id)).toMatchObject({ state: "stopped", stopReason: "app_closed" });
    expect(await instanceRow(ids[3])).toMatchObject({ state: "running" });
  });
});

describe("administration", () => {
  it("lists instances, running first, with their hourly billing and files, and filters them", async () => {
    const owner = await makeOwner(10_000_000);
    const app = await makeDigitalApp(owner);
    const stoppedApp = await makeDigitalApp(owner);
    const { id } = await openInstance({ appId: app.id, ownerAccountId: owner.id });
    const { id: stoppedId } = await openInstance({ appId: stoppedApp.id, ownerAccountId: owner.id, now: new Date(Date.now() - 40 * MIN) });
    await sweepInstances(new Date(), [stoppedId]);
    await recordInstanceFile(id, { fileKey: `media/${owner.id}/speech/${id}-1.mp3`, kind: "speech", bytes: 1200 });
    await recordInstanceFile(id, { fileKey: `media/${owner.id}/speech/${id}-1.mp3`, kind: "speech", bytes: 1200 });
    await recordInstanceFile(id, { fileKey: `media/${owner.id}/lipsync/${id}-1.mp4`, kind: "lipsync", bytes: 3400 });

    const running = await admin.digitalInstances.list({ state: "running" });
    const item = running.items.find((i) => i.id === id);
    expect(item).toMatchObject({
      app: { id: app.id, name: app.name },
      owner: { id: owner.id, nickname: "App owner" },
      state: "running",
      stopReason: null,
      hourPriceMicro: PRICE,
      hoursBilled: 1,
      chargedMicro: PRICE,
      fileCount: 2,
      fileBytes: 4600,
    });
    expect(running.items.every((i) => i.state === "running")).toBe(true);
    const stopped = await admin.digitalInstances.list({ state: "stopped" });
    expect(stopped.items.find((i) => i.id === stoppedId)).toMatchObject({ state: "stopped", stopReason: "idle" });
    expect(stopped.items.some((i) => i.id === id)).toBe(false);
    const all = await admin.digitalInstances.list({ state: "all", page: 1 });
    const states = all.items.map((i) => i.state);
    expect(states.indexOf("stopped") === -1 || states.lastIndexOf("running") < states.indexOf("stopped")).toBe(true);
  });

  it("sets the hourly price within 0-1000 Z, refusing anything else with a field", async () => {
    expect(await admin.digitalInstances.hourPrice()).toMatchObject({ priceMicro: PRICE, defaultMicro: 1_000_000, maxMicro: 1_000_000_000 });
    expect(await admin.digitalInstances.setHourPrice({ priceMicro: 1_500_000 })).toMatchObject({ priceMicro: 1_500_000 });
    for (const priceMicro of [-1, 1_000_000_001, 1.5]) expect(await codeOf(admin.digitalInstances.setHourPrice({ priceMicro } as never))).toBe("BAD_REQUEST");
    expect(await getInstanceHourPrice()).toBe(1_500_000);
    await setInstanceHourPrice(null, { priceMicro: PRICE });
  });

  it("deletes an instance: stopped, its files cleared from the store, hidden from the list", async () => {
    const owner = await makeOwner(10_000_000);
    const app = await makeDigitalApp(owner);
    const { id } = await openInstance({ appId: app.id, ownerAccountId: owner.id });
    const store = getFileStore();
    const keys = [`media/${owner.id}/speech/${id}-1.mp3`, `media/${owner.id}/lipsync/${id}-1.mp4`];
    await store.put(keys[0], Buffer.alloc(1500, 1), "audio/mpeg");
    await store.put(keys[1], Buffer.alloc(2500, 2), "video/mp4");
    await recordInstanceFile(id, { fileKey: keys[0], kind: "speech", bytes: 1500 });
    await recordInstanceFile(id, { fileKey: keys[1], kind: "lipsync", bytes: 2500 });
    // A file already gone from the store is fine.
    await recordInstanceFile(id, { fileKey: `media/${owner.id}/speech/${id}-gone.mp3`, kind: "speech", bytes: 7 });
    expect(await store.get(keys[0])).not.toBeNull();

    expect(await admin.digitalInstances.remove({ id })).toEqual({ id, files: 3, bytes: 4007 });
    for (const key of keys) expect(await store.get(key)).toBeNull();
    expect(fs.readdirSync(path.join(dataDir, "files", "media", owner.id), { recursive: true }).filter((f) => String(f).includes(".")).length).toBe(0);
    const row = await instanceRow(id);
    expect(row).toMatchObject({ state: "stopped", stopReason: "admin" });
    expect(row.deletedAt).not.toBeNull();
    expect(await getDb().digitalInstanceFile.count({ where: { instanceId: id } })).toBe(0);
    expect((await admin.digitalInstances.list({ state: "all" })).items.some((i) => i.id === id)).toBe(false);
    // Deleted once: not found again, and no file can join it.
    expect(await codeOf(admin.digitalInstances.remove({ id }))).toBe("NOT_FOUND");
    expect(await recordInstanceFile(id, { fileKey: `media/${owner.id}/speech/${id}-late.mp3`, kind: "speech", bytes: 1 })).toBe(false);
    // The app opens a new instance afterwards.
    expect((await openInstance({ appId: app.id, ownerAccountId: owner.id })).id).not.toBe(id);
  });

  it("answers unknown or malformed ids with not found or a refused field, never a 500", async () => {
    expect(await codeOf(admin.digitalInstances.remove({ id: "no-such-instance" }))).toBe("NOT_FOUND");
    expect(await codeOf(admin.digitalInstances.remove({ id: "" }))).toBe("BAD_REQUEST");
    expect(await codeOf(admin.digitalInstances.remove({ id: "x".repeat(500) }))).toBe("BAD_REQUEST");
    expect(await codeOf(admin.digitalInstances.list({ state: "paused" } as never))).toBe("BAD_REQUEST");
    expect(await codeOf(admin.digitalInstances.list({ page: 0 }))).toBe("BAD_REQUEST");
  });

  it("refuses every verb to anyone but a platform administrator, changing nothing", async () => {
    const owner = await makeOwner(10_000_000);
    const app = await makeDigitalApp(owner);
    const { id } = await openInstance({ appId: app.id, ownerAccountId: owner.id });
    for (const caller of [asAccount(owner.id), appRouter.createCaller({ lng: "en", isPlatformAdmin: false, account: null })]) {
      expect(await codeOf(caller.digitalInstances.list({}))).toBe("FORBIDDEN");
      expect(await codeOf(caller.digitalInstances.hourPrice())).toBe("FORBIDDEN");
      expect(await codeOf(caller.digitalInstances.setHourPrice({ priceMicro: 0 }))).toBe("FORBIDDEN");
      expect(await codeOf(caller.digitalInstances.remove({ id }))).toBe("FORBIDDEN");
    }
    expect(await instanceRow(id)).toMatchObject({ state: "running", deletedAt: null });
    expect(await getInstanceHourPrice()).toBe(PRICE);
  });
});
