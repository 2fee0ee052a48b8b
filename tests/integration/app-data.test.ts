// An app's data for its owner: counts per China-time day from dialogues, messages and
// AppUse rows seeded across two days and two sources (a dialogue crossing midnight China time while
// still on the same UTC date), feedback totals, the dialogue list's filters and paging, one
// dialogue's messages, the export job writing an xlsx read back with exceljs (run by the real
// worker and directly), the download checked against the owner, and every refusal of another
// account's app answering not_found with nothing written.
import crypto from "node:crypto";
import ExcelJS from "exceljs";
import type { Worker } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { mapError } from "../../server/errors/map-error";
import { startSession } from "../../server/auth/session.service";
import { getQueue } from "../../server/jobs/queue";
import { appRouter } from "../../server/trpc/app-router";
import * as data from "../../server/apps/app-data.service";
import { ZAppOverviewInput } from "../../server/apps/app-data.schema";
import * as exportsSvc from "../../server/apps/app-export.service";
import { getShareTarget } from "../../server/apps/app-share.service";
import { buildIframeSnippet, buildScriptSnippet, buildShareUrl } from "../../server/apps/app-share";
import { startWorkers } from "../../workers/main";
import { createTestApp, makeAppOwner, type TTestActor } from "../helpers/apps";
import { Browser } from "../helpers/api-client";
import { useApiWithTempFiles } from "../helpers/temp-files-api";

const server = useApiWithTempFiles("zl-appdata-");
const run = crypto.randomBytes(3).toString("hex");
const DAY1 = "2026-03-10";
const DAY2 = "2026-03-11";
/** A China-time wall clock as the UTC instant it is (UTC+8 all year). */
const cst = (day: string, time: string) => new Date(`${day}T${time}:00+08:00`);

let owner: TTestActor;
let stranger: TTestActor;
let appId: string;
let otherAppId: string;
const ids: Record<string, string> = {};
let workers: Worker[] = [];

async function refusal(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e) => e,
  );
  expect(err, "expected a refusal").toBeTruthy();
  return mapError(err, "en").code;
}

type TSeedMessage = { role: "user" | "assistant"; content: string; at: Date; feedback?: "liked" | "disliked"; status?: "done" | "censored" };
async function seedDialogue(
  app: string,
  d: { title: string; source: string; accountId?: string; visitorId?: string; at: Date; deleted?: boolean; messages: TSeedMessage[] },
) {
  const row = await getDb().dialogue.create({
    data: {
      appId: app,
      title: d.title,
      source: d.source,
      accountId: d.accountId ?? null,
      visitorId: d.visitorId ?? null,
      createdAt: d.at,
      lastMessageAt: d.messages.at(-1)!.at,
      deletedAt: d.deleted ? new Date() : null,
    },
    select: { id: true },
  });
  await getDb().chatMessage.createMany({
    data: d.messages.map((m) => ({
      dialogueId: row.id,
      role: m.role,
      content: m.content,
      createdAt: m.at,
      feedback: m.feedback ?? "none",
      status: m.status ?? "done",
    })),
  });
  return row.id;
}

beforeAll(async () => {
  ({ appId, owner } = await createTestApp());
  stranger = await makeAppOwner();
  ({ appId: otherAppId } = await createTestApp({ owner: stranger }));
  const consumer = await getDb().account.create({ data: { account: `consumer${run}`, nickname: `Consumer ${run}`, language: "en" }, select: { id: true } });
  ids.consumer = consumer.id;
  // Day 1: a visitor on H5, liked reply.
  ids.d1 = await seedDialogue(appId, {
    title: "退货问题",
    source: "h5",
    visitorId: `visitor-one-${run}`,
    at: cst(DAY1, "10:00"),
    messages: [
      { role: "user", content: "退货怎么办？", at: cst(DAY1, "10:00") },
      { role: "assistant", content: "七天内可以退货。", at: cst(DAY1, "10:00"), feedback: "liked" },
    ],
  });
  // A signed-in consumer late on day 1, going on past midnight China time (still 2026-03-10 in UTC).
  ids.d2 = await seedDialogue(appId, {
    title: "Shipping",
    source: "h5",
    accountId: consumer.id,
    at: cst(DAY1, "23:30"),
    messages: [
      { role: "user", content: "When does it ship?", at: cst(DAY1, "23:30") },
      { role: "assistant", content: "Within two days.", at: cst(DAY1, "23:31"), feedback: "disliked" },
      { role: "user", content: "And returns?", at: cst(DAY2, "00:10") },
      { role: "assistant", content: '=HYPERLINK("http://x") stays text', at: cst(DAY2, "00:11") },
    ],
  });
  // Day 2: an API caller's dialogue, one censored reply.
  ids.d3 = await seedDialogue(appId, {
    title: "开发票",
    source: "api",
    visitorId: `visitor-two-${run}`,
    at: cst(DAY2, "09:00"),
    messages: [
      { role: "user", content: "能开发票吗", at: cst(DAY2, "09:00") },
      { role: "assistant", content: "forbidden words", at: cst(DAY2, "09:01"), status: "censored" },
    ],
  });
  // A dialogue its user deleted: counted in the numbers, not listed or exported.
  ids.d4 = await seedDialogue(appId, {
    title: "deleted one",
    source: "h5",
    visitorId: `visitor-three-${run}`,
    at: cst(DAY2, "12:00"),
    deleted: true,
    messages: [
      { role: "user", content: "hello", at: cst(DAY2, "12:00") },
      { role: "assistant", content: "hi", at: cst(DAY2, "12:00") },
    ],
  });
  // An OpenAI-compatible call keeps no dialogue: its AppUse row still counts its caller.
  await getDb().appUse.create({ data: { appId, source: "api", basis: "owner", day: 20260311, apiKeyId: `key-${run}`, createdAt: cst(DAY2, "15:00") } });
  // Another app's dialogue on the same day must not count.
  await seedDialogue(otherAppId, {
    title: "other",
    source: "h5",
    visitorId: `visitor-x-${run}`,
    at: cst(DAY1, "11:00"),
    messages: [{ role: "user", content: "退货", at: cst(DAY1, "11:00") }],
  });
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.close()));
  await getQueue("apps").close();
});

describe("numbers per day", () => {
  it("counts people, dialogues and messages per China day, with quiet days as zeros", async () => {
    const o = await data.getAppOverview(owner, { appId, range: { from: "2026-03-09", to: "2026-03-12" } });
    expect(o.app).toMatchObject({ id: appId, state: "on_shelf" });
    expect(o.days).toEqual([
      { day: "2026-03-09", users: 0, dialogues: 0, messages: 0 },
      { day: DAY1, users: 2, dialogues: 2, messages: 4 },
      // d2's last two, d3 and the deleted d4; people: the consumer, two visitors, the API key.
      { day: DAY2, users: 4, dialogues: 3, messages: 6 },
      { day: "2026-03-12", users: 0, dialogues: 0, messages: 0 },
    ]);
    expect(o.totals).toEqual({ users: 5, dialogues: 4, messages: 10, liked: 1, disliked: 1 });
  });

  it("narrows to the range asked (one day)", async () => {
    const o = await data.getAppOverview(owner, { appId, range: { from: DAY1, to: DAY1 } });
    expect(o.days).toEqual([{ day: DAY1, users: 2, dialogues: 2, messages: 4 }]);
    expect(o.totals).toEqual({ users: 2, dialogues: 2, messages: 4, liked: 1, disliked: 1 });
  });

  it("refuses a range the wrong way round or longer than 366 days", async () => {
    // As the overview procedure parses its input before the service runs.
    const overview = async (raw: unknown) => data.getAppOverview(owner, ZAppOverviewInput.parse(raw));
    expect(await refusal(overview({ appId, range: { from: DAY2, to: DAY1 } }))).toBe("validation_failed");
    expect(await refusal(overview({ appId, range: { from: "2024-01-01", to: "2026-01-01" } }))).toBe("validation_failed");
    expect(await refusal(overview({ appId, range: { from: "2026-02-30", to: DAY1 } }))).toBe("validation_failed");
  });
});

describe("dialogue details", () => {
  const list = (filters: object, page = 1, pageSize = 20) => data.listAppDialogues(owner, { appId, filters, page, pageSize });
  const titles = async (filters: object) => (await list(filters)).items.map((d) => d.title);

  it("lists the app's dialogues newest first, without the deleted one", async () => {
    const page = await list({});
    expect(page.total).toBe(3);
    expect(page.items.map((d) => d.id)).toEqual([ids.d3, ids.d2, ids.d1]);
    const d2 = page.items[1];
    expect(d2).toMatchObject({ source: "h5", user: { kind: "account", label: `Consumer ${run}` }, message_count: 4, liked: 0, disliked: 1 });
    expect(page.items[2]).toMatchObject({ user: { kind: "visitor", label: "visitor-" }, liked: 1, disliked: 0 });
  });

  it("filters by days, source, feedback and keyword, and pages", async () => {
    expect(await titles({ range: { from: DAY2, to: DAY2 } })).toEqual(["开发票"]);
    expect(await titles({ range: { from: DAY1, to: DAY1 } })).toEqual(["Shipping", "退货问题"]);
    expect(await titles({ source: "api" })).toEqual(["开发票"]);
    expect(await titles({ source: "bot" })).toEqual([]);
    expect(await titles({ feedback: "liked" })).toEqual(["退货问题"]);
    expect(await titles({ feedback: "disliked" })).toEqual(["Shipping"]);
    expect(await titles({ feedback: "any" })).toEqual(["Shipping", "退货问题"]);
    expect(await titles({ feedback: "none" })).toEqual(["开发票"]);
    expect(await titles({ keyword: "发票" })).toEqual(["开发票"]); // the title
    expect(await titles({ keyword: "七天" })).toEqual(["退货问题"]); // a reply's text
    expect(await titles({ keyword: "RETURNS" })).toEqual(["Shipping"]); // any case
    expect(await titles({ source: "h5", feedback: "liked", keyword: "退货" })).toEqual(["退货问题"]);
    const first = await list({}, 1, 2);
    const second = await list({}, 2, 2);
    expect([first.total, first.items.length, second.items.length]).toEqual([3, 2, 1]);
    expect(second.items[0].id).toBe(ids.d1);
  });

  it("shows one dialogue's messages in order, a censored reply without its text", async () => {
    const d = await data.getAppDialogue(owner, { appId, dialogueId: ids.d3 });
    expect(d.messages.map((m) => [m.role, m.content, m.status])).toEqual([
      ["user", "能开发票吗", "done"],
      ["assistant", "", "censored"],
    ]);
    const d1 = await data.getAppDialogue(owner, { appId, dialogueId: ids.d1 });
    expect(d1.messages.map((m) => m.feedback)).toEqual(["none", "liked"]);
  });

  it("answers not_found for a dialogue of another app, or a deleted one, under this app's id", async () => {
    const foreign = await getDb().dialogue.findFirstOrThrow({ where: { appId: otherAppId }, select: { id: true } });
    expect(await refusal(data.getAppDialogue(owner, { appId, dialogueId: foreign.id }))).toBe("not_found");
    expect(await refusal(data.getAppDialogue(owner, { appId, dialogueId: ids.d4 }))).toBe("not_found");
  });
});

describe("another account's app", () => {
  it("answers not_found on every read, through the service and through tRPC", async () => {
    const range = { from: DAY1, to: DAY2 };
    expect(await refusal(data.getAppOverview(stranger, { appId, range }))).toBe("not_found");
    expect(await refusal(data.listAppDialogues(stranger, { appId, filters: {}, page: 1, pageSize: 20 }))).toBe("not_found");
    expect(await refusal(data.getAppDialogue(stranger, { appId, dialogueId: ids.d1 }))).toBe("not_found");
    expect(await refusal(exportsSvc.listAppExports(stranger, { appId }))).toBe("not_found");
    expect(await refusal(data.getAppOverview(owner, { appId: "no-such-app", range }))).toBe("not_found");
    const caller = appRouter.createCaller({
      lng: "en",
      isPlatformAdmin: false,
      account: { ...stranger, account: "x", nickname: "x", avatarUrl: null, phone: null, edition: "flagship" } as never,
    });
    const err = await caller.appData.overview({ appId, range }).then(
      () => null,
      (e) => e,
    );
    expect(err?.code).toBe("NOT_FOUND");
  });

  it("refuses to export it and writes nothing", async () => {
    const before = await getDb().appExport.count();
    expect(await refusal(exportsSvc.startAppExport(stranger, { appId, filters: {} }, "en"))).toBe("not_found");
    expect(await getDb().appExport.count()).toBe(before);
  });
});

/** Rows of the export's first sheet as arrays of cell text, header included. */
async function readXlsx(bytes: Buffer) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as never);
  const sheet = book.worksheets[0];
  const rows: string[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((v) => (v == null ? "" : String(v)))));
  return { name: sheet.name, rows };
}

async function waitFor<T>(fn: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error("timed out");
}

describe("export", () => {
  const HEADER = ["Dialogue ID", "Dialogue title", "Source", "User", "Time (China)", "Role", "Content", "Feedback"];

  it("is a job the worker runs: every listed dialogue's messages as rows, oldest first, downloadable by the owner only", async () => {
    const started = await exportsSvc.startAppExport(owner, { appId, filters: {} }, "en");
    expect(started).toMatchObject({ state: "pending", progress: 0, download_url: null });
    workers = await startWorkers();
    const done = await waitFor(async () => {
      const view = await exportsSvc.getAppExport(owner, { exportId: started.id });
      return view.state === "done" || view.state === "failed" ? view : null;
    });
    expect(done).toMatchObject({ state: "done", progress: 100, row_count: 8, error: null });
    expect(done.download_url).toBe(`/api/v1/app/exports/${started.id}/download`);

    const ownerBrowser = new Browser(server.base, "10.77.0.1");
    ownerBrowser.cookies.set("zl_session", (await startSession(owner.id)).token);
    const file = await ownerBrowser.fetchRaw(done.download_url!);
    expect(file.http).toBe(200);
    expect(file.headers.get("content-type")).toContain("spreadsheetml");
    expect(file.headers.get("content-disposition")).toContain("attachment");
    const { name, rows } = await readXlsx(file.bytes);
    expect(name).toBe("Dialogues");
    expect(rows).toEqual([
      HEADER,
      [ids.d1, "退货问题", "H5", "Visitor visitor-", "2026-03-10 10:00:00", "User", "退货怎么办？", ""],
      [ids.d1, "退货问题", "H5", "Visitor visitor-", "2026-03-10 10:00:00", "App", "七天内可以退货。", "Liked"],
      [ids.d2, "Shipping", "H5", `Consumer ${run}`, "2026-03-10 23:30:00", "User", "When does it ship?", ""],
      [ids.d2, "Shipping", "H5", `Consumer ${run}`, "2026-03-10 23:31:00", "App", "Within two days.", "Disliked"],
      [ids.d2, "Shipping", "H5", `Consumer ${run}`, "2026-03-11 00:10:00", "User", "And returns?", ""],
      [ids.d2, "Shipping", "H5", `Consumer ${run}`, "2026-03-11 00:11:00", "App", '=HYPERLINK("http://x") stays text', ""],
      [ids.d3, "开发票", "API", "Visitor visitor-", "2026-03-11 09:00:00", "User", "能开发票吗", ""],
      [ids.d3, "开发票", "API", "Visitor visitor-", "2026-03-11 09:01:00", "App", "", ""],
    ]);
    // A formula-looking message stays a string cell, never a formula.
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.bytes as never);
    expect(book.worksheets[0].getRow(7).getCell(7).type).toBe(ExcelJS.ValueType.String);

    // Someone else: not the file, not the row, in the envelope.
    const strangerBrowser = new Browser(server.base, "10.77.0.2");
    strangerBrowser.cookies.set("zl_session", (await startSession(stranger.id)).token);
    const refused = await strangerBrowser.call(done.download_url!);
    expect(refused.http).toBe(404);
    expect(refused.body.status).toBe(404001);
    expect(await refusal(exportsSvc.getAppExport(stranger, { exportId: started.id }))).toBe("not_found");
    // Not signed in: the login code.
    const anonymous = await new Browser(server.base, "10.77.0.3").call(done.download_url!);
    expect(anonymous.body.status).toBe(110003);
    expect((await exportsSvc.listAppExports(owner, { appId })).map((e) => e.id)).toContain(started.id);
  });

  it("takes the list's filters, in the owner's language, and runs once however often it is picked up", async () => {
    const started = await exportsSvc.startAppExport(owner, { appId, filters: { source: "api" } }, "zh_hans");
    // Whichever gets there first (the worker started above, or this direct run) writes the file.
    await exportsSvc.runAppExport({ exportId: started.id, lng: "zh_hans" });
    const done = await waitFor(async () => {
      const v = await exportsSvc.getAppExport(owner, { exportId: started.id });
      return v.state === "done" ? v : null;
    });
    expect(done.row_count).toBe(2);
    expect(await exportsSvc.runAppExport({ exportId: started.id, lng: "zh_hans" })).toBe("skipped");
    const file = await exportsSvc.readAppExportFile(owner, started.id);
    const chunks: Buffer[] = [];
    for await (const c of file.stream) chunks.push(c as Buffer);
    const { name, rows } = await readXlsx(Buffer.concat(chunks));
    expect(name).toBe("对话");
    expect(rows[0]).toEqual(["对话 ID", "对话标题", "来源", "用户", "时间（北京时间）", "角色", "内容", "反馈"]);
    expect(rows.slice(1).map((r) => [r[0], r[2], r[5], r[6]])).toEqual([
      [ids.d3, "API", "用户", "能开发票吗"],
      [ids.d3, "API", "应用", ""],
    ]);
  });
});

describe("sharing", () => {
  it("builds the share link with the sharer as touser, and embeds with everything escaped", () => {
    expect(buildShareUrl("https://zelinai.com/", "app1", "acc9")).toBe("https://zelinai.com/share?app=app1&touser=acc9");
    const app = { id: 'a"1', name: `<b>"Tom's" & co</b>` };
    const iframe = buildIframeSnippet("https://zelinai.com", app, "u&1");
    expect(iframe).toBe(
      `<iframe src="https://zelinai.com/mobi/dialogue?app=a%221&amp;embed=1&amp;touser=u%261" title="&lt;b&gt;&quot;Tom&#39;s&quot; &amp; co&lt;/b&gt;" width="400" height="640" style="border:0;border-radius:12px;max-width:100%" allow="microphone; clipboard-write"></iframe>`,
    );
    const script = buildScriptSnippet("https://zelinai.com", app, "u1");
    expect(script).toBe(
      `<script src="https://zelinai.com/embed.js" data-app="a&quot;1" data-touser="u1" data-title="&lt;b&gt;&quot;Tom&#39;s&quot; &amp; co&lt;/b&gt;" defer></script>`,
    );
  });

  it("lets anyone share an app on the shelf, only its owner one that is not served", async () => {
    expect(await getShareTarget(stranger, appId)).toMatchObject({ id: appId, is_owner: false });
    expect(await getShareTarget(owner, appId)).toMatchObject({ id: appId, is_owner: true });
    const { appId: hidden } = await createTestApp({ owner, state: "off_shelf" });
    expect(await getShareTarget(owner, hidden)).toMatchObject({ id: hidden, is_owner: true });
    expect(await refusal(getShareTarget(stranger, hidden))).toBe("not_found");
    expect(await refusal(getShareTarget(stranger, "missing"))).toBe("not_found");
  });
});
