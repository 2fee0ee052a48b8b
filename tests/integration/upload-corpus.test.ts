// Every upload endpoint against the bad-file corpus (tests/helpers/bad-files.ts): renamed programs,
// empty files, one byte over the endpoint's own limit, zip/docx/xlsx/PNG bombs, SVG and HTML in
// disguise, polyglots, PDFs with script, NUL bytes, names that climb folders or carry control
// characters. Each is refused with a 4xx and a message in the asker's language, stores nothing (no
// file under DATA_DIR, no row in the endpoint's tables, nothing sent upstream), and the server still
// answers /healthz. The endpoint table is checked against the source: a route that reads a
// multipart form without a row here fails the first test.
import crypto from "node:crypto";
import fs from "node:fs";
import http, { type RequestListener } from "node:http";
import os from "node:os";
import path from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CERTIFICATE_FIELD, CERTIFICATION_IMAGE_FIELDS } from "../../server/accounts/certification.schema";
import { CHAT_IMAGE_LIMITS, MAX_AUDIO_BYTES } from "../../server/apps/app-voice.service";
import { startSession } from "../../server/auth/session.service";
import { findWordSettings } from "../../server/content/content.repository";
import { WORD_FILE_MAX_BYTES } from "../../server/content/content.schema";
import { getDb } from "../../server/db/client";
import { resetEnvCache } from "../../server/env";
import { codeForStatus, type TErrorCode } from "../../server/errors/codes";
import { healthz } from "../../server/http/health";
import * as sets from "../../server/knowledge/training-sets.service";
import { QA_IMPORT_MAX_BYTES } from "../../server/knowledge/training-sets.schema";
import { dropSingleton } from "../../server/lib/singleton";
import { createChannel } from "../../server/models/channels.service";
import { createModel } from "../../server/models/models.service";
import { DOCUMENT_MAX_BYTES } from "../../server/dialogues/chat.schema";
import {
  AVATAR_LIMITS,
  CERTIFICATE_FILE_MAX_BYTES,
  CERTIFICATION_IMAGE_LIMITS,
  MEDIA_IMAGE_LIMITS,
  MEDIA_VIDEO_LIMITS,
  TEXT_FILE_LIMITS,
  TRAINING_FILE_LIMITS,
} from "../../server/uploads/upload-limits";
import { startFakeOpenai } from "../fakes/fake-openai";
import { Browser, startApiServer } from "../helpers/api-client";
import { createTestApp } from "../helpers/apps";
import { buildBadFiles, type TBadFile, type TGoodFile } from "../helpers/bad-files";
import { makeAgent, makeUser, type TUser } from "../helpers/chat-runtime";
import { readLocale } from "../helpers/locales";
import { makePdf, makePng } from "../helpers/png";
import { ZCreateChannelInput, ZCreateModelInput } from "../../server/models/models.schema";
import { CONSENT_LIMITS, FILMING_LIMITS, VOICE_CUSTOM_PRICE_MICRO, VOICE_UPLOAD_MAX_BYTES } from "../../server/digital/digital.schema";
import { fundAccount } from "../helpers/money";
import { makeToneWav } from "../helpers/voice-samples";

const ROOT = path.resolve(import.meta.dirname, "../..");
const LANGUAGES = ["zh_hans", "zh_hant", "en", "pt"];
/** Refusals of a kind an endpoint does not take: each endpoint words its own. */
const TYPE_REFUSALS: TErrorCode[] = [
  "sensitive_words_file_not_text",
  "file_type_not_allowed",
  "document_type_not_allowed",
  "text_file_type_not_allowed",
  "video_type_not_allowed",
  "audio_type_not_allowed",
  "media_type_not_allowed",
  "document_type_not_readable",
  "qa_import_unreadable",
  "file_type_mismatch",
  "workshop_content_type_not_allowed",
  "workshop_content_unreadable",
];

// --- The server, with /healthz, its files in a folder of this test's own, and a fake upstream ---

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zl-corpus-"));
const h = {} as { fake: Awaited<ReturnType<typeof startFakeOpenai>>; api: Awaited<ReturnType<typeof startApiServer>> };
const withHealth = (app: RequestListener) =>
  express()
    .get("/healthz", healthz)
    .use(app as express.RequestHandler) as unknown as RequestListener;

beforeAll(async () => {
  process.env.DATA_DIR = dataDir;
  resetEnvCache();
  dropSingleton("file-store");
  h.fake = await startFakeOpenai();
  h.api = await startApiServer({ wrap: withHealth });
});
afterAll(async () => {
  await h.api?.close();
  await h.fake?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Every file under DATA_DIR, wherever a write might have landed. */
const storedFiles = () =>
  (fs.readdirSync(dataDir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();

// --- A multipart body written byte for byte (names with raw NUL or line breaks included) ---------

type TPart = { name: string; value: string } | { name: string; file: TBadFile | TGoodFile };
type TAnswer = { http: number; body: { status: number; description: string; data: unknown } | null };

function formBody(parts: TPart[]) {
  const boundary = `----zelin-corpus-${crypto.randomBytes(8).toString("hex")}`;
  const pieces: Buffer[] = [];
  for (const part of parts) {
    if ("value" in part) {
      pieces.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
      continue;
    }
    const param = ("filenameParam" in part.file && part.file.filenameParam) || `filename="${part.file.filename}"`;
    pieces.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; ${param}\r\nContent-Type: ${part.file.type}\r\n\r\n`),
      part.file.bytes,
      Buffer.from("\r\n"),
    );
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { boundary, pieces };
}

function postForm(who: Browser, pathname: string, parts: TPart[], lang: string): Promise<TAnswer> {
  const { boundary, pieces } = formBody(parts);
  const cookies = new Map([...who.cookies, ["lang", lang]]);
  const headers = {
    "content-type": `multipart/form-data; boundary=${boundary}`,
    "content-length": String(pieces.reduce((n, p) => n + p.length, 0)),
    cookie: [...cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; "),
    "x-csrf-token": who.cookies.get("zl_csrf")!,
    "x-forwarded-for": who.ip,
  };
  return new Promise((resolve, reject) => {
    const req = http.request(`${h.api.base}${pathname}`, { method: "POST", headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        resolve({ http: res.statusCode ?? 0, body: text ? JSON.parse(text) : null });
      });
    });
    // The server may answer before it has read everything (a limit passed): the rest still goes.
    req.on("error", reject);
    for (const piece of pieces) req.write(piece);
    req.end();
  });
}

// --- The endpoints -------------------------------------------------------------------------------

const GOOD = {
  png: { bytes: makePng(400, 400), filename: "photo.png", type: "image/png" },
  mp4: {
    bytes: Buffer.concat([Buffer.from("\0\0\0\x18ftypisom\0\0\0\0isommp41\0\0\x10\x08mdat", "latin1"), crypto.randomBytes(4096)]),
    filename: "clip.mp4",
    type: "video/mp4",
  },
  wav: { bytes: makeToneWav({ seconds: 8, peakDbfs: -20 }), filename: "voice.wav", type: "audio/wav" },
  text: { bytes: Buffer.from("营业时间是 9 点到 18 点。\nOpening hours are 9 to 6.\n"), filename: "notes.txt", type: "text/plain" },
  csv: { bytes: Buffer.from("问题,答案\n营业时间？,9 点到 18 点\n"), filename: "qa.csv", type: "text/csv" },
  pdf: { bytes: makePdf(), filename: "certificate.pdf", type: "application/pdf" },
  webm: {
    bytes: Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01]), Buffer.from("B\x82\x84webm"), crypto.randomBytes(64)]),
    filename: "voice.webm",
    type: "audio/webm",
  },
} satisfies Record<string, TGoodFile>;

type TSetup = {
  /** Posts the form with `file` in the endpoint's field and whatever else the form needs. */
  send: (file: TBadFile | TGoodFile, lang: string) => Promise<TAnswer>;
  /** Rows of the endpoint's area that a refused upload must leave as they were. */
  state: () => Promise<unknown>;
  /** The accepted upload that shows the row above is the one that moves (defaults to `send`). */
  control?: (file: TGoodFile) => Promise<TAnswer>;
};
type TEndpoint = { route: string; field: string; maxBytes: number; good: TGoodFile; setup: () => Promise<TSetup> };

const user = () => makeUser(h.api.base);

/** The word the sensitive-word import's accepted upload adds: unique to the run, taken off after it. */
const CONTROL_WORD = `corpus${crypto.randomBytes(4).toString("hex")}`;
let admin: Browser | undefined;
async function makeAdmin() {
  const row = await getDb().account.create({ data: { account: `adm${CONTROL_WORD}`, nickname: "Admin", roles: ["platform_admin"] }, select: { id: true } });
  admin = new Browser(h.api.base, "10.96.0.1");
  admin.cookies.set("zl_session", (await startSession(row.id)).token);
  return admin;
}
afterAll(async () => {
  await admin?.call("/api/v1/admin/sensitive_words/remove", { body: { words: [CONTROL_WORD] } });
});
let visitors = 0;
/** A fresh H5 visitor per request: the voice and picture routes count requests per visitor and minute. */
function visitor() {
  const browser = new Browser(h.api.base, `10.95.${Math.floor(++visitors / 250)}.${visitors % 250}`);
  browser.cookies.set("zl_visitor", crypto.randomBytes(16).toString("hex"));
  return browser;
}

/**
 * Voice models of earlier runs (their fakes gone) are off while this file runs and back on after
 * it; this file's own goes off with its fake.
 */
let otherVoiceModels: string[] = [];
let ownVoiceModel = "";
afterAll(async () => {
  await getDb().model.updateMany({ where: { id: { in: otherVoiceModels } }, data: { enabled: true } });
  await getDb().model.updateMany({ where: { key: ownVoiceModel }, data: { enabled: false } });
});

async function makeVoiceModel() {
  otherVoiceModels = (await getDb().model.findMany({ where: { kind: "voice", enabled: true }, select: { id: true } })).map((m) => m.id);
  await getDb().model.updateMany({ where: { id: { in: otherVoiceModels } }, data: { enabled: false } });
  const modelKey = `whisper-corpus-${crypto.randomBytes(4).toString("hex")}`;
  ownVoiceModel = modelKey;
  await createModel(ZCreateModelInput.parse({ key: modelKey, display_name: "语音", kind: "voice", upstream_model: modelKey }));
  await createChannel(
    ZCreateChannelInput.parse({ name: `ch ${modelKey}`, type: "openai", base_url: h.fake.base, key: `sk-voice-${modelKey}`, models: [modelKey], weight: 1 }),
  );
}

async function makeModalApp() {
  const owner = await user();
  const agent = await makeAgent(h, owner, { publish: true });
  const { appId } = await createTestApp({ owner: owner.actor, agentId: agent.agentId, input: { input_modes: ["text", "voice", "image"] } as never });
  return appId;
}

const filesOfApp = (appId: string) => storedFiles().filter((f) => f.includes(`${path.sep}app${path.sep}${appId}${path.sep}`)).length;

/** A certification form: valid fields and pictures, `file` in `field`. */
function certificationParts(field: string, file: TBadFile | TGoodFile): TPart[] {
  const fields: TPart[] = [
    { name: "real_name", value: "张三" },
    { name: "id_number", value: "11010519491231002X" },
    { name: "introduction", value: "Ten years of building chat agents for retail." },
  ];
  const pictures = CERTIFICATION_IMAGE_FIELDS.map((f) => ({ name: f, file: f === field ? file : GOOD.png }));
  return [...fields, ...pictures, ...(field === CERTIFICATE_FIELD ? [{ name: field, file }] : [])];
}

/** A figure's upload: a good filming video, and `file` in `field` (the filming video itself or the greeting video). */
function figureEndpoint(field: "file" | "greeting", maxBytes: number): TEndpoint {
  return {
    route: "POST /v1/digital/figures",
    field,
    maxBytes,
    good: GOOD.mp4,
    setup: async () => {
      const u = await user();
      return {
        send: (file, lang) =>
          postForm(
            u.browser,
            "/api/v1/digital/figures",
            [{ name: "name", value: "corpus" }, ...(field === "file" ? [] : [{ name: "file", file: GOOD.mp4 }]), { name: field, file }],
            lang,
          ),
        state: () => getDb().digitalFigure.count({ where: { ownerAccountId: u.id } }),
      };
    },
  };
}

function certificationEndpoint(field: string, maxBytes: number, good: TGoodFile): TEndpoint {
  return {
    route: "POST /v1/account/certification",
    field,
    maxBytes,
    good,
    setup: async () => {
      const applicant = await user();
      const rows = () => getDb().certification.count({ where: { accountId: applicant.id } });
      const post = (who: TUser, file: TBadFile | TGoodFile, lang: string) =>
        postForm(who.browser, "/api/v1/account/certification", certificationParts(field, file), lang);
      // One pending application at a time: the accepted one is another applicant's.
      return { send: (file, lang) => post(applicant, file, lang), state: rows, control: async (file) => post(await user(), file, "en") };
    },
  };
}

const ENDPOINTS: TEndpoint[] = [
  {
    route: "POST /v1/account/avatar",
    field: "file",
    maxBytes: AVATAR_LIMITS.maxBytes,
    good: GOOD.png,
    setup: async () => {
      const u = await user();
      const state = async () => (await getDb().account.findUniqueOrThrow({ where: { id: u.id }, select: { avatarUrl: true } })).avatarUrl;
      return { send: (file, lang) => postForm(u.browser, "/api/v1/account/avatar", [{ name: "file", file }], lang), state };
    },
  },
  {
    route: "POST /v1/uploads/image",
    field: "file",
    maxBytes: AVATAR_LIMITS.maxBytes,
    good: GOOD.png,
    setup: async () => {
      const u = await user();
      return { send: (file, lang) => postForm(u.browser, "/api/v1/uploads/image", [{ name: "file", file }], lang), state: async () => null };
    },
  },
  {
    route: "POST /v1/workshop/contents",
    field: "file",
    maxBytes: TEXT_FILE_LIMITS.maxBytes,
    good: GOOD.text,
    setup: async () => {
      const u = await user();
      // Nothing is stored: the answer (the content read from the file) is what an accepted upload leaves.
      let read: unknown = null;
      return {
        send: async (file, lang) => {
          const res = await postForm(u.browser, "/api/v1/workshop/contents", [{ name: "file", file }], lang);
          if (res.body?.status === 200) read = res.body.data;
          return res;
        },
        state: async () => read,
      };
    },
  },
  {
    route: "POST /v1/ai_message/document",
    field: "file",
    maxBytes: DOCUMENT_MAX_BYTES,
    good: GOOD.text,
    setup: async () => {
      const u = await user();
      return {
        send: (file, lang) => postForm(u.browser, "/api/v1/ai_message/document", [{ name: "file", file }], lang),
        state: () => getDb().chatDocument.count({ where: { accountId: u.id } }),
      };
    },
  },
  {
    route: "POST /v1/media",
    field: "file",
    maxBytes: MEDIA_IMAGE_LIMITS.maxBytes,
    good: GOOD.png,
    setup: async () => {
      const u = await user();
      return {
        send: (file, lang) =>
          postForm(
            u.browser,
            "/api/v1/media",
            [
              { name: "name", value: "corpus" },
              { name: "file", file },
            ],
            lang,
          ),
        state: () => getDb().mediaItem.count({ where: { ownerAccountId: u.id } }),
      };
    },
  },
  {
    route: "POST /v1/media",
    field: "file (video)",
    maxBytes: MEDIA_VIDEO_LIMITS.maxBytes,
    good: GOOD.mp4,
    setup: async () => {
      const u = await user();
      return {
        send: (file, lang) => postForm(u.browser, "/api/v1/media", [{ name: "file", file }], lang),
        state: () => getDb().mediaItem.count({ where: { ownerAccountId: u.id } }),
      };
    },
  },
  {
    route: "POST /v1/training/sets/:id/documents",
    field: "file0",
    maxBytes: TRAINING_FILE_LIMITS.maxBytes,
    good: GOOD.text,
    setup: async () => {
      const u = await user();
      const set = await sets.createTrainingSet(u.actor, { type: "smart", name: "产品手册", introduction: "" });
      return {
        send: (file, lang) => postForm(u.browser, `/api/v1/training/sets/${set.id}/documents`, [{ name: "file0", file }], lang),
        state: () => getDb().trainingDocument.count({ where: { trainingSetId: set.id } }),
      };
    },
  },
  {
    route: "POST /v1/training/sets/:id/qa/import",
    field: "file",
    maxBytes: QA_IMPORT_MAX_BYTES,
    good: GOOD.csv,
    setup: async () => {
      const u = await user();
      const set = await sets.createTrainingSet(u.actor, { type: "standard", name: "售后问答", introduction: "常见问题" });
      return {
        send: (file, lang) => postForm(u.browser, `/api/v1/training/sets/${set.id}/qa/import`, [{ name: "file", file }], lang),
        state: () => getDb().qaItem.count({ where: { trainingSetId: set.id } }),
      };
    },
  },
  {
    route: "POST /v2/app/transcribe",
    field: "file",
    maxBytes: MAX_AUDIO_BYTES,
    good: GOOD.webm,
    setup: async () => {
      await makeVoiceModel();
      const appId = await makeModalApp();
      const send = (file: TBadFile | TGoodFile, lang: string) =>
        postForm(
          visitor(),
          `/api/v2/app/transcribe?app_id=${appId}`,
          [
            { name: "app_id", value: appId },
            { name: "file", file },
          ],
          lang,
        );
      // Nothing is kept: what must not move is what reached the voice model.
      return { send, state: async () => h.fake.audio.length };
    },
  },
  {
    route: "POST /v2/app/image",
    field: "file",
    maxBytes: CHAT_IMAGE_LIMITS.maxBytes,
    good: GOOD.png,
    setup: async () => {
      const appId = await makeModalApp();
      const send = (file: TBadFile | TGoodFile, lang: string) =>
        postForm(
          visitor(),
          `/api/v2/app/image?app_id=${appId}`,
          [
            { name: "app_id", value: appId },
            { name: "file", file },
          ],
          lang,
        );
      return { send, state: async () => filesOfApp(appId) };
    },
  },
  {
    route: "POST /v1/admin/sensitive_words/import",
    field: "file",
    maxBytes: WORD_FILE_MAX_BYTES,
    good: { bytes: Buffer.from(`${CONTROL_WORD}\n`), filename: "words.txt", type: "text/plain" },
    setup: async () => {
      const admin = await makeAdmin();
      const send = (file: TBadFile | TGoodFile, lang: string) => postForm(admin, "/api/v1/admin/sensitive_words/import", [{ name: "file", file }], lang);
      return { send, state: () => findWordSettings() };
    },
  },
  figureEndpoint("file", FILMING_LIMITS.figure.maxBytes),
  figureEndpoint("greeting", FILMING_LIMITS.greeting.maxBytes),
  {
    route: "POST /v1/digital/figures/:id/consent",
    field: "file",
    maxBytes: CONSENT_LIMITS.maxBytes,
    good: GOOD.mp4,
    setup: async () => {
      const u = await user();
      const figure = await getDb().digitalFigure.create({
        data: {
          ownerAccountId: u.id,
          name: "corpus",
          state: "ready",
          sourceFileKey: `media/${u.id}/figures/corpus.mp4`,
          loopFileKey: `media/${u.id}/figures/corpus.loop.mp4`,
        },
        select: { id: true },
      });
      const state = async () => (await getDb().digitalFigure.findUniqueOrThrow({ where: { id: figure.id }, select: { consentFileKey: true } })).consentFileKey;
      return { send: (file, lang) => postForm(u.browser, `/api/v1/digital/figures/${figure.id}/consent`, [{ name: "file", file }], lang), state };
    },
  },
  {
    route: "POST /v1/digital/voices",
    field: "file",
    maxBytes: VOICE_UPLOAD_MAX_BYTES,
    good: GOOD.wav,
    setup: async () => {
      const u = await user();
      // A voice customisation is paid when it is cloned: the account can pay for it.
      await fundAccount(u.id, VOICE_CUSTOM_PRICE_MICRO * 4);
      const fields = [
        { name: "name", value: "corpus" },
        { name: "sample_kind", value: "custom" },
      ];
      return {
        send: (file, lang) => postForm(u.browser, "/api/v1/digital/voices", [...fields, { name: "file", file }], lang),
        state: () => getDb().digitalVoice.count({ where: { ownerAccountId: u.id } }),
      };
    },
  },
  certificationEndpoint(CERTIFICATION_IMAGE_FIELDS[1], CERTIFICATION_IMAGE_LIMITS.maxBytes, GOOD.png),
  certificationEndpoint(CERTIFICATE_FIELD, CERTIFICATE_FILE_MAX_BYTES, GOOD.pdf),
];

// --- The table against the source ---------------------------------------------------------------

const sourceFiles = (dir: string): string[] =>
  (fs.readdirSync(path.join(ROOT, dir), { recursive: true }) as string[])
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((f) => path.join(dir, f));
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

/** "POST /v1/..." for every Express route whose handler reads a multipart form, and any call outside a route. */
function multipartRoutesInSource() {
  const routes: string[] = [];
  for (const file of sourceFiles("server").filter((f) => read(f).includes("readMultipart("))) {
    if (file === path.join("server", "uploads", "multipart.ts")) continue;
    const text = read(file);
    // Paths written with a constant of the file (`${BASE}/import`) are spelled out.
    const constants = new Map([...text.matchAll(/const (\w+) = ["'`]([^"'`$]+)["'`]/g)].map((m) => [m[1], m[2]]));
    const spell = (route: string) => route.replace(/\$\{(\w+)\}/g, (whole, name: string) => constants.get(name) ?? whole);
    const chunks = text.split(/router\.(?=(?:get|post|put|patch|delete|all|use)\()/);
    let inRoutes = 0;
    for (const chunk of chunks.slice(1)) {
      const m = /^(\w+)\(\s*["'`]([^"'`]+)["'`]/.exec(chunk);
      const calls = chunk.split("readMultipart(").length - 1;
      if (!m || !calls) continue;
      routes.push(`${m[1].toUpperCase()} ${spell(m[2])}`);
      inRoutes += calls;
    }
    if (inRoutes !== text.split("readMultipart(").length - 1) routes.push(`readMultipart outside a route in ${file}`);
  }
  return [...new Set(routes)].sort();
}

describe("the upload endpoints", () => {
  it("the table names every route that reads a file, and nothing reads files another way", () => {
    expect(multipartRoutesInSource()).toEqual([...new Set(ENDPOINTS.map((e) => e.route))].sort());
    const code = [...sourceFiles("server"), ...sourceFiles("app")];
    const otherReaders = code.filter(
      (f) =>
        f !== path.join("server", "uploads", "multipart.ts") &&
        /from "busboy"|parseMultipartFormData|createFileUploadHandler|\bmulter\b|formidable/.test(read(f)),
    );
    expect(otherReaders, "files parsing multipart bodies outside server/uploads/multipart.ts").toEqual([]);
    // A tRPC procedure taking a file would carry it as base64 or bytes: none may, or it joins the table.
    const trpcFiles = code.filter((f) => f.endsWith(".router.ts") && /base64|z\.instanceof\((?:Buffer|Uint8Array|Blob|File)\)/.test(read(f)));
    expect(trpcFiles, "tRPC routers taking file bytes").toEqual([]);
  });
});

// --- The corpus, endpoint by endpoint -------------------------------------------------------------

/** The message of `code` in `lng`, its parameters matched loosely. */
function expectLocalized(description: string, code: TErrorCode, lng: string) {
  const template: string = readLocale(lng, "errors")[code];
  expect(template, `${code} in ${lng}`).toBeTruthy();
  const pattern = template.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\\\{\\\{\w+\\\}\\\}/g, ".+?");
  expect(description).toMatch(new RegExp(`^${pattern}$`));
}

async function healthy() {
  const res = await fetch(`${h.api.base}/healthz`);
  return res.status;
}

describe.each(ENDPOINTS.map((e) => [`${e.route} ${e.field}`, e] as const))("%s", (_name, endpoint) => {
  let setup: TSetup;
  beforeAll(async () => {
    setup = await endpoint.setup();
  });

  it("takes its good file (the table reaches the endpoint, and an accepted upload is seen)", async () => {
    const before = { files: storedFiles().length, state: await setup.state() };
    const res = await (setup.control ?? ((f: TGoodFile) => setup.send(f, "en")))(endpoint.good);
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 200 });
    const after = { files: storedFiles().length, state: await setup.state() };
    expect(after, "an accepted upload leaves a trace this test can see").not.toEqual(before);
  });

  it("refuses every bad file with a localized 4xx, stores nothing, and stays healthy", async () => {
    const corpus = buildBadFiles(endpoint.good, endpoint.maxBytes);
    for (const [i, bad] of corpus.entries()) {
      const lng = LANGUAGES[i % LANGUAGES.length];
      const label = `${endpoint.route} ${endpoint.field}: ${bad.label}`;
      const before = { files: storedFiles(), state: await setup.state() };
      const res = await setup.send(bad, lng);
      expect(res.http, `${label} answered ${res.http} ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
      expect(res.http, label).toBeLessThan(500);
      const code = codeForStatus(res.body!.status);
      if (bad.expect === "type") expect(TYPE_REFUSALS, `${label}: ${code}`).toContain(code);
      else expect(code, label).toBe(bad.expect);
      expectLocalized(res.body!.description, code!, lng);
      expect({ files: storedFiles(), state: await setup.state() }, `${label} stored something`).toEqual(before);
      expect(await healthy(), `${label}: health`).toBe(200);
    }
  });
});
