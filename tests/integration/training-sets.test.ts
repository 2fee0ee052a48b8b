// Training sets as owners keep them: CRUD, the edition's set limit, the free characters
// ("characters insufficient" with nothing written), Q&A items, import with a row-by-row report and
// export round trips (csv and xlsx), smart-set documents through the multipart route, the state
// machine's refusals, the paused storage service, other accounts' sets answering not-found on
// every verb, and agents refusing training sets that are not their owner's.
import { fundAccount } from "../helpers/money";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { mapError } from "../../server/errors/map-error";
import { FREE_TRAINING_CHARS } from "../../server/accounts/editions";
import { startSession } from "../../server/auth/session.service";
import { insertModel } from "../../server/models/models.repository";
import * as agents from "../../server/agents/agents.service";
import { ZAgentInput } from "../../server/agents/agents.schema";
import * as sets from "../../server/knowledge/training-sets.service";
import { ZAddQaItemInput, ZCreateTrainingSetInput, ZListQaItemsInput } from "../../server/knowledge/training-sets.schema";
import { deleteDocument } from "../../server/knowledge/training-sets.files.service";
import { appRouter } from "../../server/trpc/app-router";
import { indexTrainingSet } from "../../server/knowledge/indexing.service";
import { getQueue } from "../../server/jobs/queue";
import { Browser } from "../helpers/api-client";
import { useApiWithTempFiles } from "../helpers/temp-files-api";
import { makeDocx, makeExe } from "../helpers/sample-files";

const run = crypto.randomBytes(3).toString("hex");
const server = useApiWithTempFiles("zl-train-");
const MODEL = `train-model-${run}`;
let n = 0;

type TUser = { id: string; browser: Browser; actor: { id: string; roles: string[]; enterpriseId: null } };

async function makeUser(edition: "basic" | "professional" | "flagship" = "professional"): Promise<TUser> {
  const row = await getDb().account.create({
    data: {
      account: `tr${run}${++n}`,
      nickname: `Trainer ${n}`,
      edition,
      editionExpiresAt: edition === "basic" ? null : new Date(Date.now() + 30 * 86_400_000),
      language: "en",
    },
    select: { id: true },
  });
  const browser = new Browser(server.base, `10.61.${Math.floor(n / 250)}.${n % 250}`);
  browser.cookies.set("zl_session", (await startSession(row.id)).token);
  browser.cookies.set("lang", "en");
  return { id: row.id, browser, actor: { id: row.id, roles: [], enterpriseId: null } };
}

async function refusal(p: Promise<unknown>, lng = "en") {
  const err = await p.then(
    () => null,
    (e) => e,
  );
  expect(err, "expected a refusal").toBeTruthy();
  return mapError(err, lng);
}

const setRow = (id: string) => getDb().trainingSet.findUniqueOrThrow({ where: { id } });
const itemCount = (id: string) => getDb().qaItem.count({ where: { trainingSetId: id } });
const newStandard = (u: TUser, name = "售后问答") =>
  sets.createTrainingSet(u.actor, ZCreateTrainingSetInput.parse({ type: "standard", name, introduction: "常见问题" }));
const newSmart = (u: TUser, name = "产品手册") => sets.createTrainingSet(u.actor, ZCreateTrainingSetInput.parse({ type: "smart", name }));
/** A page of a set's items, as the procedure parses its input (page 1 of 20 unless asked). */
const qaPage = (u: TUser, input: { id: string; page?: number; pageSize?: number; search?: string }) =>
  sets.listQaItems(u.actor, ZListQaItemsInput.parse(input));
/** Runs the indexing job for the set's current revision, as the worker would. */
const train = async (id: string) => indexTrainingSet(id, (await setRow(id)).revision);
const csv = (text: string) => ({ bytes: Buffer.from(text), filename: "qa.csv", type: "text/csv" });

beforeAll(async () => {
  await insertModel({
    key: MODEL,
    displayName: "Train",
    kind: "text",
    upstreamModel: MODEL,
    contextWindow: 8192,
    inputPriceMicro: 0,
    outputPriceMicro: 0,
    supportsTools: false,
    supportsReasoning: false,
    enabled: true,
  });
});
afterAll(async () => {
  await getQueue("knowledge").close();
});

describe("sets", () => {
  it("creates, lists, renames and deletes a set", async () => {
    const u = await makeUser();
    const created = await newStandard(u);
    expect(created).toMatchObject({ type: "standard", name: "售后问答", introduction: "常见问题", state: "done", char_count: 0, agents: [] });
    await newSmart(u);
    expect((await sets.listTrainingSets(u.actor)).map((s) => [s.name, s.type])).toEqual([
      ["产品手册", "smart"],
      ["售后问答", "standard"],
    ]);
    const renamed = await sets.updateTrainingSet(u.actor, { id: created.id, name: "退货问答", introduction: "" });
    expect(renamed).toMatchObject({ name: "退货问答", introduction: "" });
    await sets.deleteTrainingSet(u.actor, { id: created.id });
    expect((await sets.listTrainingSets(u.actor)).map((s) => s.name)).toEqual(["产品手册"]);
    expect((await refusal(sets.getTrainingSet(u.actor, { id: created.id }))).code).toBe("not_found");
    expect((await setRow(created.id)).deletedAt).not.toBeNull();
  });

  it("refuses a bad name with the field's message (the procedure's input schema)", async () => {
    const long = await refusal(ZCreateTrainingSetInput.parseAsync({ type: "standard", name: "x".repeat(31) }), "zh_hans");
    expect(long.envelope.description).toBe("训练集名称为 1 到 30 个字符");
    expect((long.envelope.data as { fields: { path: string }[] }).fields[0].path).toBe("name");
    expect((await refusal(ZCreateTrainingSetInput.parseAsync({ type: "database", name: "db" }))).code).toBe("validation_failed");
  });

  it("keeps a basic account to one set, also when two creations race, naming the edition", async () => {
    const u = await makeUser("basic");
    const results = await Promise.allSettled([newStandard(u, "一"), newSmart(u, "二")]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const second = await refusal(newStandard(u, "三"));
    expect(second.code).toBe("edition_upgrade_required");
    expect(second.envelope.description).toBe("Your edition does not include this: upgrade to Professional");
    expect(await getDb().trainingSet.count({ where: { ownerAccountId: u.id } })).toBe(1);
    // A deleted set frees its place.
    await sets.deleteTrainingSet(u.actor, { id: (await sets.listTrainingSets(u.actor))[0].id });
    await newStandard(u, "四");
  });

  it("lists the agents that use each set", async () => {
    const u = await makeUser();
    const s = await newStandard(u);
    const agent = await agents.createAgent(u.actor, ZAgentInput.parse({ name: "客服", introduction: "answers", model_key: MODEL, training_set_ids: [s.id] }));
    expect((await sets.listTrainingSets(u.actor))[0].agents).toEqual([{ id: agent.id, name: "客服" }]);
    await agents.deleteAgent(u.actor, { id: agent.id });
    expect((await sets.listTrainingSets(u.actor))[0].agents).toEqual([]);
  });
});

describe("Q&A items", () => {
  it("adds, finds, edits and deletes items; each change trains the set again", async () => {
    const u = await makeUser();
    const s = await newStandard(u);
    const before = await setRow(s.id);
    const a = await sets.addQaItem(u.actor, ZAddQaItemInput.parse({ id: s.id, question: "  怎么退货？ ", answer: "七天内无理由退货。" }));
    expect(a).toMatchObject({ question: "怎么退货？", position: 1 });
    const after = await setRow(s.id);
    expect(after).toMatchObject({ state: "training", progress: 0, revision: before.revision + 1 });
    await sets.addQaItem(u.actor, { id: s.id, question: "How long is delivery?", answer: "Two to five days." });
    expect(await train(s.id)).toBe("done");
    expect(await setRow(s.id)).toMatchObject({
      state: "done",
      charCount: "怎么退货？七天内无理由退货。".length + "How long is delivery?Two to five days.".length,
    });

    const page = await qaPage(u, { id: s.id, page: 1, pageSize: 1 });
    expect(page).toMatchObject({ total: 2, page: 1, pageSize: 1 });
    expect(page.items.map((i) => i.question)).toEqual(["怎么退货？"]);
    expect((await qaPage(u, { id: s.id, search: "DELIVERY" })).items.map((i) => i.question)).toEqual(["How long is delivery?"]);

    const edited = await sets.updateQaItem(u.actor, { id: s.id, itemId: a.id, question: "如何退货？", answer: "七天内可退。" });
    expect(edited.question).toBe("如何退货？");
    await sets.deleteQaItem(u.actor, { id: s.id, itemId: a.id });
    expect(await itemCount(s.id)).toBe(1);
    expect((await refusal(sets.deleteQaItem(u.actor, { id: s.id, itemId: a.id }))).code).toBe("not_found");
  });

  it("refuses a repeated question (case and spacing aside) on the field, writing nothing", async () => {
    const u = await makeUser();
    const s = await newStandard(u);
    const first = await sets.addQaItem(u.actor, { id: s.id, question: "How long is delivery?", answer: "Two days." });
    const other = await sets.addQaItem(u.actor, { id: s.id, question: "Refunds?", answer: "Yes." });
    const dup = await refusal(sets.addQaItem(u.actor, { id: s.id, question: "how  long is DELIVERY?", answer: "x" }));
    expect(dup.code).toBe("qa_question_duplicate");
    expect(dup.envelope).toMatchObject({ description: "This question is already in the training set", data: { fields: [{ path: "question" }] } });
    // Editing another item into the same question is refused too; keeping its own question is not.
    expect((await refusal(sets.updateQaItem(u.actor, { id: s.id, itemId: other.id, question: "How long is delivery?", answer: "x" }))).code).toBe(
      "qa_question_duplicate",
    );
    await sets.updateQaItem(u.actor, { id: s.id, itemId: first.id, question: "How long is delivery?", answer: "Three days." });
    expect(await itemCount(s.id)).toBe(2);
    const empty = await refusal(ZAddQaItemInput.parseAsync({ id: s.id, question: " ", answer: "x" }));
    expect(empty.envelope.description).toBe("A question has 1 to 500 characters");
    expect(await itemCount(s.id)).toBe(2);
  });

  it("refuses text past the free characters in the user's language, writing nothing", async () => {
    const u = await makeUser("flagship");
    const big = await newSmart(u, "大文档");
    // Another set already keeps all but 20 of the free characters.
    await getDb().trainingSet.update({ where: { id: big.id }, data: { charCount: FREE_TRAINING_CHARS - 20 } });
    const s = await newStandard(u);
    await sets.addQaItem(u.actor, { id: s.id, question: "问题一", answer: "答案一" }); // 6 characters: fits
    const revision = (await setRow(s.id)).revision;
    const over = await refusal(sets.addQaItem(u.actor, { id: s.id, question: "这个问题比较长一些", answer: "答案也有好几个字" }), "zh_hans");
    expect(over.code).toBe("characters_insufficient");
    expect(over.envelope.description).toBe("字符数不足");
    expect(over.envelope.data).toMatchObject({ used: FREE_TRAINING_CHARS - 14, adding: 17, limit: FREE_TRAINING_CHARS, remaining: 14 });
    expect(await itemCount(s.id)).toBe(1);
    expect((await setRow(s.id)).revision).toBe(revision);
    // An import past the limit writes none of its rows.
    const res = await u.browser.upload(`/api/v1/training/sets/${s.id}/qa/import`, {
      files: { file: csv("问题,答案\n甲,一二三四五六七\n乙,一二三四五六七\n") },
    });
    expect(res.body).toMatchObject({ status: 420014, description: "Not enough characters left" });
    expect(await itemCount(s.id)).toBe(1);
    // A smart set at the limit takes no more documents, and nothing is stored.
    await getDb().trainingSet.update({ where: { id: big.id }, data: { charCount: FREE_TRAINING_CHARS } });
    const smart = await newSmart(u, "另一个");
    const doc = await u.browser.upload(`/api/v1/training/sets/${smart.id}/documents`, { files: { file0: { bytes: makeDocx("正文"), filename: "a.docx" } } });
    expect(doc.body.status).toBe(420014);
    expect(await getDb().trainingDocument.count({ where: { trainingSetId: smart.id } })).toBe(0);
    expect(fs.existsSync(path.join(server.dataDir, "files", "training", u.id))).toBe(false);

    // Past the free million is storage the account pays for by the day: with a day's price in its
    // wallet (0.01 Z per 100 characters of the whole), the same question is taken.
    await fundAccount(u.id, 20_000, "spendable");
    const before = (await setRow(s.id)).revision;
    await sets.addQaItem(u.actor, { id: s.id, question: "这个问题比较长一些", answer: "答案也有好几个字" });
    expect(await itemCount(s.id)).toBe(2);
    expect((await setRow(s.id)).revision).toBeGreaterThan(before);
  });
});

describe("import and export", () => {
  it("imports a csv row by row: added rows, and refused rows with their reasons", async () => {
    const u = await makeUser();
    const s = await newStandard(u);
    await sets.addQaItem(u.actor, { id: s.id, question: "已有的问题", answer: "已有的答案" });
    const file = [
      "问题,答案",
      "怎么退货？,七天内无理由退货",
      ",没有问题的答案",
      "没有答案的问题,",
      `${"长".repeat(501)},答案`,
      " 怎么退货？ ,重复的问题",
      "已有的问题,训练集里已经有了",
      ",",
      '"带逗号, 和换行的问题","第一行\n第二行"',
    ].join("\n");
    const res = await u.browser.upload(`/api/v1/training/sets/${s.id}/qa/import`, { files: { file: csv(file) } });
    expect(res.body.status).toBe(200);
    const report = res.body.data;
    expect(report).toMatchObject({ added: 2, refused: 5 });
    expect(report.rows.map((r: any) => [r.row, r.status, r.reason ?? null, r.duplicate_of ?? null])).toEqual([
      [2, "added", null, null],
      [3, "refused", "empty_question", null],
      [4, "refused", "empty_answer", null],
      [5, "refused", "question_too_long", null],
      [6, "refused", "duplicate_in_file", 2],
      [7, "refused", "duplicate_in_set", null],
      [9, "added", null, null],
    ]);
    const items = await qaPage(u, { id: s.id });
    expect(items.items.map((i) => [i.question, i.answer])).toEqual([
      ["已有的问题", "已有的答案"],
      ["怎么退货？", "七天内无理由退货"],
      ["带逗号, 和换行的问题", "第一行\n第二行"],
    ]);
    expect((await setRow(s.id)).state).toBe("training");
  });

  it("refuses a file it cannot read at all, and an empty one, writing nothing", async () => {
    const u = await makeUser();
    const s = await newStandard(u);
    const revision = (await setRow(s.id)).revision;
    for (const bytes of [Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]), makeDocx("not a sheet")]) {
      const res = await u.browser.upload(`/api/v1/training/sets/${s.id}/qa/import`, { files: { file: { bytes, filename: "qa.xlsx" } } });
      expect(res.body).toMatchObject({ status: 420605, description: expect.stringContaining("could not be read") });
    }
    // A program is refused as such by every upload, whatever it is called.
    const exe = await u.browser.upload(`/api/v1/training/sets/${s.id}/qa/import`, { files: { file: { bytes: makeExe(), filename: "qa.xlsx" } } });
    expect(exe.body.status).toBe(420018);
    const broken = await u.browser.upload(`/api/v1/training/sets/${s.id}/qa/import`, { files: { file: csv('a,"b\nc,d') } });
    expect(broken.body.status).toBe(420605);
    const empty = await u.browser.upload(`/api/v1/training/sets/${s.id}/qa/import`, { files: { file: csv("问题,答案\n,\n") } });
    expect(empty.body.status).toBe(420018);
    expect(await itemCount(s.id)).toBe(0);
    expect((await setRow(s.id)).revision).toBe(revision);
  });

  it("exports every item as xlsx and csv, and imports them back unchanged", async () => {
    const u = await makeUser();
    const s = await newStandard(u);
    const items = [
      ["你好？", "=1+1 不是公式"],
      ["'=x", "-5 度"],
      ["Line breaks?", 'first\nsecond, "quoted"'],
      ["123", "@home"],
    ];
    for (const [question, answer] of items) await sets.addQaItem(u.actor, { id: s.id, question, answer });
    for (const format of ["xlsx", "csv"] as const) {
      const file = await u.browser.fetchRaw(`/api/v1/training/sets/${s.id}/qa/export?format=${format}`);
      expect(file.http).toBe(200);
      expect(file.headers.get("content-disposition")).toBe(
        `attachment; filename="____.${format}"; filename*=UTF-8''${encodeURIComponent(`售后问答.${format}`)}`,
      );
      if (format === "csv") {
        expect(file.bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
        expect(file.bytes.toString("utf8")).toContain("'=1+1 不是公式");
      } else {
        const wb = new ExcelJS.Workbook();
        await wb.xlsx.load(file.bytes as never);
        expect(wb.worksheets[0].getRow(1).values).toEqual([undefined, "Question", "Answer"]);
      }
      const copy = await newStandard(u, `副本 ${format}`);
      const res = await u.browser.upload(`/api/v1/training/sets/${copy.id}/qa/import`, { files: { file: { bytes: file.bytes, filename: `x.${format}` } } });
      expect(res.body.data).toMatchObject({ added: 4, refused: 0 });
      expect((await qaPage(u, { id: copy.id })).items.map((i) => [i.question, i.answer])).toEqual(items);
    }
    expect((await u.browser.call(`/api/v1/training/sets/${s.id}/qa/export?format=pdf`)).body.status).toBe(400001);
  });
});

describe("documents of smart sets", () => {
  it("uploads a docx, which the job reads and counts; deleting it removes its file", async () => {
    const u = await makeUser();
    const s = await newSmart(u);
    const text = "退货政策：收到商品七天内可以无理由退货。";
    const res = await u.browser.upload(`/api/v1/training/sets/${s.id}/documents`, {
      files: { file0: { bytes: makeDocx(text), filename: "退货政策说明书第二版最终定稿版本.docx" } },
    });
    expect(res.body.status).toBe(200);
    expect(res.body.data).toEqual([expect.objectContaining({ name: "退货政策说明书第二版最终定稿版本.docx", state: "pending", char_count: 0 })]);
    expect((await setRow(s.id)).state).toBe("training");
    expect(await train(s.id)).toBe("done");
    const detail = await sets.getTrainingSet(u.actor, { id: s.id });
    expect(detail).toMatchObject({ state: "done", char_count: text.length, documents: [{ state: "done", char_count: text.length }] });

    const key = (await getDb().trainingDocument.findFirstOrThrow({ where: { trainingSetId: s.id } })).fileKey;
    expect(key.startsWith(`training/${u.id}/`)).toBe(true);
    expect(fs.existsSync(path.join(server.dataDir, "files", key))).toBe(true);
    await deleteDocument(u.actor, { id: s.id, documentId: detail.documents[0].id });
    expect(fs.existsSync(path.join(server.dataDir, "files", key))).toBe(false);
    expect((await setRow(s.id)).state).toBe("training");
  });

  it("refuses a renamed executable, an empty file, an eleventh file and a Q&A set, storing nothing", async () => {
    const u = await makeUser();
    const s = await newSmart(u);
    const upload = (files: Record<string, { bytes: Uint8Array; filename?: string }>) => u.browser.upload(`/api/v1/training/sets/${s.id}/documents`, { files });
    const exe = await upload({ file0: { bytes: makeDocx("fine"), filename: "ok.docx" }, file1: { bytes: makeExe(), filename: "manual.docx" } });
    expect(exe.body).toMatchObject({ status: 420018, data: { name: "manual.docx" } });
    expect((await upload({ file0: { bytes: Buffer.alloc(0), filename: "empty.txt" } })).body.status).toBe(420018);
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`file${i}`, { bytes: Buffer.from(`text ${i}`), filename: `${i}.txt` }]));
    expect((await upload(eleven)).body).toMatchObject({ status: 420207, description: "At most 10 files can be uploaded at once" });
    const qa = await newStandard(u);
    const wrong = await u.browser.upload(`/api/v1/training/sets/${qa.id}/documents`, { files: { file0: { bytes: Buffer.from("text"), filename: "a.txt" } } });
    expect(wrong.body.status).toBe(420603);
    expect(await getDb().trainingDocument.count({ where: { trainingSetId: { in: [s.id, qa.id] } } })).toBe(0);
    expect(fs.existsSync(path.join(server.dataDir, "files", "training", u.id))).toBe(false);
  });
});

describe("states", () => {
  it("stops, disables and enables by the table, refusing the moves it does not allow", async () => {
    const u = await makeUser();
    const s = await newStandard(u);
    const stopDone = await refusal(sets.applyTrainingSetAction(u.actor, { id: s.id, action: "stop" }));
    expect(stopDone.code).toBe("training_set_state_refused");
    expect(stopDone.envelope.description).toBe('The training set is "Done" and cannot be stopped now');
    const item = await sets.addQaItem(u.actor, { id: s.id, question: "Q", answer: "A" });
    expect(await sets.applyTrainingSetAction(u.actor, { id: s.id, action: "stop" })).toMatchObject({ state: "stopped" });
    // A job that was running for the stopped revision no longer finishes it.
    expect(await train(s.id)).toBe("superseded");
    expect(await sets.applyTrainingSetAction(u.actor, { id: s.id, action: "disable" })).toMatchObject({ state: "disabled" });
    const edit = await refusal(sets.addQaItem(u.actor, { id: s.id, question: "Q2", answer: "A2" }), "zh_hans");
    expect(edit.envelope.description).toBe("训练集当前为“已禁用”，无法编辑");
    expect((await refusal(sets.deleteQaItem(u.actor, { id: s.id, itemId: item.id }))).code).toBe("training_set_state_refused");
    expect((await refusal(sets.applyTrainingSetAction(u.actor, { id: s.id, action: "disable" }))).code).toBe("training_set_state_refused");
    expect((await refusal(sets.applyTrainingSetAction(u.actor, { id: s.id, action: "retrain" }))).code).toBe("training_set_state_refused");
    expect(await sets.applyTrainingSetAction(u.actor, { id: s.id, action: "enable" })).toMatchObject({ state: "training", progress: 0 });
    expect(await train(s.id)).toBe("done");
    expect(await sets.applyTrainingSetAction(u.actor, { id: s.id, action: "retrain" })).toMatchObject({ state: "training" });
    expect(await itemCount(s.id)).toBe(1);
  });

  it("reads as unavailable while the owner's storage service is paused: no additions, deletions allowed", async () => {
    const u = await makeUser();
    const s = await newStandard(u);
    const item = await sets.addQaItem(u.actor, { id: s.id, question: "Q", answer: "A" });
    await getDb().account.update({ where: { id: u.id }, data: { knowledgePausedAt: new Date() } });
    expect((await sets.listTrainingSets(u.actor))[0].state).toBe("unavailable");
    const add = await refusal(sets.addQaItem(u.actor, { id: s.id, question: "Q2", answer: "A2" }));
    expect(add.envelope.description).toBe("The knowledge storage service is paused: training sets are unavailable");
    expect((await refusal(sets.applyTrainingSetAction(u.actor, { id: s.id, action: "retrain" }))).code).toBe("training_set_unavailable");
    await sets.deleteQaItem(u.actor, { id: s.id, itemId: item.id });
    expect(await itemCount(s.id)).toBe(0);
  });
});

describe("tenancy", () => {
  it("answers not-found on every verb for another account's set, changing nothing", async () => {
    const alice = await makeUser();
    const bob = await makeUser();
    const s = await newStandard(alice);
    const item = await sets.addQaItem(alice.actor, { id: s.id, question: "Q", answer: "A" });
    const smart = await newSmart(alice);
    const calls: (() => Promise<unknown>)[] = [
      () => sets.getTrainingSet(bob.actor, { id: s.id }),
      () => sets.updateTrainingSet(bob.actor, { id: s.id, name: "mine", introduction: "" }),
      () => sets.deleteTrainingSet(bob.actor, { id: s.id }),
      () => sets.applyTrainingSetAction(bob.actor, { id: s.id, action: "disable" }),
      () => qaPage(bob, { id: s.id }),
      () => sets.addQaItem(bob.actor, { id: s.id, question: "Q2", answer: "A2" }),
      () => sets.updateQaItem(bob.actor, { id: s.id, itemId: item.id, question: "Q3", answer: "A3" }),
      () => sets.deleteQaItem(bob.actor, { id: s.id, itemId: item.id }),
    ];
    for (const call of calls) expect((await refusal(call())).code).toBe("not_found");
    const http = [
      await bob.browser.upload(`/api/v1/training/sets/${s.id}/qa/import`, { files: { file: csv("Q9,A9\n") } }),
      await bob.browser.upload(`/api/v1/training/sets/${smart.id}/documents`, { files: { file0: { bytes: Buffer.from("text"), filename: "a.txt" } } }),
      await bob.browser.call(`/api/v1/training/sets/${s.id}/qa/export?format=csv`),
    ];
    for (const res of http) expect(res.body.status).toBe(404001);
    // The tRPC router answers the same.
    const caller = appRouter.createCaller({ lng: "en", isPlatformAdmin: false, account: bob.actor as never });
    const viaTrpc = await caller.trainingSets.qa.list({ id: s.id }).then(
      () => null,
      (e) => e,
    );
    expect(viaTrpc?.cause?.code).toBe("not_found");
    expect(await setRow(s.id)).toMatchObject({ name: "售后问答", state: "training", deletedAt: null });
    expect(await itemCount(s.id)).toBe(1);
    expect((await sets.listTrainingSets(bob.actor)).length).toBe(0);
  });

  it("an agent's draft refuses training sets that are not its owner's, or deleted ones, on the field", async () => {
    const alice = await makeUser();
    const bob = await makeUser();
    const own = await newStandard(alice);
    const foreign = await newStandard(bob);
    const refused = await refusal(
      agents.createAgent(alice.actor, ZAgentInput.parse({ name: "客服", introduction: "answers", model_key: MODEL, training_set_ids: [own.id, foreign.id] })),
    );
    expect(refused.code).toBe("validation_failed");
    expect(refused.envelope).toMatchObject({
      description: "Choose your own training sets",
      data: { fields: [{ path: "training_set_ids", message: "Choose your own training sets" }] },
    });
    expect(await getDb().agent.count({ where: { ownerAccountId: alice.id } })).toBe(0);
    const agent = await agents.createAgent(
      alice.actor,
      ZAgentInput.parse({ name: "客服", introduction: "answers", model_key: MODEL, training_set_ids: [own.id] }),
    );
    const save = (ids: string[]) =>
      agents.saveAgentDraft(alice.actor, {
        id: agent.id,
        agent: ZAgentInput.parse({ name: "客服", introduction: "answers", model_key: MODEL, training_set_ids: ids }),
      });
    expect((await refusal(save([foreign.id]))).code).toBe("validation_failed");
    await sets.deleteTrainingSet(alice.actor, { id: own.id });
    expect((await refusal(save([own.id]))).code).toBe("validation_failed");
    expect((await save([])).config.training_set_ids).toEqual([]);
  });
});
