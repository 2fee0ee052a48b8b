// A tenant with one of everything, for the cross-tenant suites: an account ("Ada") owning agents (a
// private live one with a prompt, Q&A and a database set; a draft), training sets, a database set
// on the real MariaDB, a media item, apps (H5 under review, API with a key), a bot with a schedule,
// a dialogue, an export, a withdrawal, a top-up order and an own channel. Every name, prompt and
// answer carries MARKER, so any answer that carries Ada's data is found by looking for it.
// `snapshotTenant` reads every row that is Ada's, to show that nobody else's call changed any.
import crypto from "node:crypto";
import mysql from "mysql2/promise";
import { createApiKey } from "../../server/apps/api-keys.service";
import { startAppExport } from "../../server/apps/app-export.service";
import { createBot } from "../../server/bots/bots.service";
import { saveSchedule } from "../../server/bots/bot-schedules.service";
import { ZScheduleInput } from "../../server/bots/bots.schema";
import { ZAgentInput } from "../../server/agents/agents.schema";
import { getDb } from "../../server/db/client";
import { queryDirect } from "../../server/db/direct-pool";
import { createDatabaseSet } from "../../server/knowledge/database/database-sets.service";
import { addQaItem, createTrainingSet } from "../../server/knowledge/training-sets.service";
import { sealSecret } from "../../server/lib/secret-box";
import { platform, post, wallet } from "../../server/money/ledger.service";
import { createAgent, publishAgent } from "../../server/agents/agents.service";
import { createTestApp, validAppInput } from "./apps";
import { makeAgent, makeUser, sendSse, type TUser } from "./chat-runtime";
import { makePng } from "./png";
import { createApp } from "../../server/apps/apps.service";
import { startDebugRun } from "../../server/workshops/runs.service";
import { createWorkshop, saveDefinition } from "../../server/workshops/workshops.service";
import { ZDefinition } from "../../server/workshops/workshops.schema";

export const MARKER = `ADA-SECRET-${crypto.randomBytes(4).toString("hex")}`;
const VALID_ID_NUMBER = "11010519491231002X";

export type TTenant = {
  user: TUser;
  ids: {
    account: string;
    agent: string;
    draftAgent: string;
    version: string;
    qaSet: string;
    qaItem: string;
    smartSet: string;
    document: string;
    databaseSet: string;
    media: string;
    /** A generation of Ada's still running, and one that failed (retry, remove). */
    mediaJob: string;
    failedMediaJob: string;
    /** A voice of Ada's whose recording failed its check, and the voice package she bought. */
    voice: string;
    voicePackage: string;
    /** A digital-human video of Ada's (its script carries MARKER). */
    digitalVideo: string;
    /** A ready figure of Ada's (its name carries MARKER). */
    figure: string;
    app: string;
    apiApp: string;
    bot: string;
    botApp: string;
    schedule: string;
    dialogue: string;
    message: string;
    export: string;
    withdrawal: string;
    order: string;
    channel: string;
    /** A workshop of Ada's (its description carries MARKER), a debug run of it and an app publishing it. */
    workshop: string;
    workshopRun: string;
    workshopApp: string;
  };
  mysqlDatabase: string;
  drop: () => Promise<void>;
};

function mysqlRoot() {
  const url = new URL(process.env.MYSQL_URL ?? "mysql://root@127.0.0.1:3306");
  return { host: url.hostname, port: Number(url.port || 3306), user: decodeURIComponent(url.username || "root"), password: decodeURIComponent(url.password) };
}

/** A MariaDB database of Ada's with one table holding MARKER, reachable through the SSRF allow-list. */
async function makeMysqlDatabase() {
  const root = mysqlRoot();
  const name = `zl_tenant_${crypto.randomBytes(4).toString("hex")}`;
  process.env.SSRF_ALLOWLIST = [process.env.SSRF_ALLOWLIST, `${root.host}:${root.port}`].filter(Boolean).join(",");
  const conn = await mysql.createConnection({ ...root, multipleStatements: true });
  await conn.query(
    `CREATE DATABASE \`${name}\`; USE \`${name}\`; CREATE TABLE secrets (id INT PRIMARY KEY, note VARCHAR(80)); INSERT INTO secrets VALUES (1, '${MARKER}-row')`,
  );
  const user = { user: name, password: `Pw-${name}` };
  for (const host of ["%", "localhost", "127.0.0.1"])
    await conn.query(`CREATE USER '${user.user}'@'${host}' IDENTIFIED BY '${user.password}'; GRANT SELECT ON \`${name}\`.* TO '${user.user}'@'${host}'`);
  await conn.end();
  return {
    root,
    user,
    name,
    ddl: "CREATE TABLE secrets (id INT PRIMARY KEY, note VARCHAR(80))",
    drop: async () => {
      const c = await mysql.createConnection(root);
      for (const host of ["%", "localhost", "127.0.0.1"]) await c.query(`DROP USER IF EXISTS '${user.user}'@'${host}'`);
      await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await c.end();
    },
  };
}

/** Seeds Ada's tenant through the services and the API as she would; `h` is the chat harness. */
export async function seedTenant(h: Parameters<typeof makeAgent>[0] & { api: { base: string } }): Promise<TTenant> {
  const user = await makeUser(h.api.base);
  const actor = user.actor;
  await post({
    key: `tenant:${user.id}:funds`,
    kind: "topup",
    accountId: user.id,
    legs: [
      { account: platform("payment_clearing"), amount: -500_000_000 },
      { account: wallet("spendable", user.id), amount: 500_000_000 },
    ],
  });
  const db = await makeMysqlDatabase();

  const qaSet = await createTrainingSet(actor, { type: "standard", name: `问答${MARKER.slice(-4)}`, introduction: `Q&A of ${MARKER}` });
  const qaItem = await addQaItem(actor, { id: qaSet.id, question: "What is the vault code?", answer: `The vault code is ${MARKER}` });
  const smartSet = await createTrainingSet(actor, { type: "smart", name: `文本${MARKER.slice(-4)}`, introduction: `Text of ${MARKER}` });
  const uploaded = await user.browser.upload(`/api/v1/training/sets/${smartSet.id}/documents`, {
    files: { file0: { bytes: Buffer.from(`Handbook of ${MARKER}.\n`), filename: "handbook.txt", type: "text/plain" } },
  });
  const dbSet = await createDatabaseSet(actor, {
    name: `库${MARKER.slice(-4)}`,
    introduction: `Database of ${MARKER}`,
    host: db.root.host,
    port: db.root.port,
    username: db.user.user,
    password: db.user.password,
    database: db.name,
    ddl: db.ddl,
  });

  const agent = await makeAgent(h, user, {
    config: { name: "Ada 私有", prompt: `System secret: ${MARKER}`, training_set_ids: [qaSet.id, dbSet.id] },
    publish: true,
  });
  const version = await getDb().agentVersion.findFirstOrThrow({ where: { agentId: agent.agentId, state: "published" }, select: { id: true } });
  const draft = await createAgent(
    actor,
    ZAgentInput.parse({ name: "Ada 草稿", introduction: `Draft of ${MARKER}`, model_key: agent.modelKey, prompt: `Draft secret ${MARKER}` }),
  );

  const media = await user.browser.upload("/api/v1/media", {
    fields: { name: `media ${MARKER}` },
    files: { file: { bytes: makePng(400, 400), filename: "ada.png", type: "image/png" } },
  });
  const app = await createTestApp({
    owner: actor,
    agentId: agent.agentId,
    state: "under_review",
    input: { name: `应用 ${MARKER.slice(-8)}`, introduction: `App of ${MARKER}` },
  });
  const apiApp = await createApp(actor, await validAppInput(agent.agentId, { type: "api", name: `API ${MARKER.slice(-8)}` }));
  await createApiKey(actor, { app_id: apiApp.id });
  const botAgent = await createAgent(actor, ZAgentInput.parse({ name: "Ada 机器人", introduction: "bot agent", model_key: agent.modelKey }));
  await publishAgent(actor, { id: botAgent.id });
  const bot = await createBot(actor, {
    name: `Bot ${MARKER.slice(-6)}`,
    agent_id: botAgent.id,
    channel: "wechat",
    credentials: {},
    group_reply: "mention",
    greeting: `Hi from ${MARKER}`,
  });
  const schedule = await saveSchedule(
    actor,
    ZScheduleInput.parse({
      bot_id: bot.bot_id,
      content: `Scheduled ${MARKER}`,
      targets: [{ kind: "contact", id: "c1", name: "Contact" }],
      send_at: new Date(Date.now() + 86_400_000).toISOString(),
      loop: "once",
      utc_offset_minutes: 480,
      enabled: true,
    }),
  );

  const workshop = await createWorkshop(actor, { name: `工坊 ${MARKER.slice(-6)}`, description: `Workshop of ${MARKER}`, icon_url: "" });
  await saveDefinition(actor, {
    id: workshop.id,
    revision: 1,
    definition: ZDefinition.parse({
      roles: [
        { name: "Mentor", type: "agent", agent_id: botAgent.id, description: `Mentor of ${MARKER}` },
        { name: "Me", type: "user" },
      ],
      nodes: [{ name: "Talk", speech_mode: "sequential", roles: ["Mentor", "Me"], max_rounds: 4, max_cycles: 2 }],
    }),
  });
  const workshopRun = await startDebugRun(actor, workshop.id, { topic: `Topic ${MARKER}` }, "en");
  const workshopApp = await createApp(
    actor,
    await validAppInput(agent.agentId, { type: "workshop", name: `工坊 ${MARKER.slice(-6)}`, settings: { workshop_id: workshop.id } }),
  );

  const chat = await sendSse(h.api.base, user, { agent_id: agent.agentId, content: `Hello, my secret is ${MARKER}` });
  const first = chat.events.find((e) => e.event === "message")?.data as { dialogue_id?: string; message_id?: string } | undefined;
  const dialogue = await getDb().dialogue.findFirstOrThrow({ where: { accountId: user.id }, select: { id: true } });
  const message = await getDb().chatMessage.findFirstOrThrow({ where: { dialogueId: dialogue.id, role: "assistant" }, select: { id: true } });
  const exported = await startAppExport(actor, { appId: app.appId, filters: {} }, "en");
  const withdrawal = await user.browser.call("/api/v1/withdrawal", {
    body: { real_name: "张三", id_number: VALID_ID_NUMBER, phone: "13800138000", amount: "20", request_id: crypto.randomUUID() },
  });
  // A top-up waiting for its payment (made as the payment service makes one; no provider is set up here).
  const order = await getDb().paymentOrder.create({
    data: { accountId: user.id, purpose: "topup", provider: "sandbox", amountMicro: 10_000_000n, details: { note: MARKER } },
    select: { id: true },
  });
  const mediaJob = (state: "generating" | "failed") =>
    getDb().mediaJob.create({
      data: {
        ownerAccountId: user.id,
        kind: "image",
        state,
        modelKey: agent.modelKey,
        params: { input: { model: agent.modelKey, prompt: `draw ${MARKER}`, count: 1 }, request: { prompt: `draw ${MARKER}`, count: 1 }, pictures: {} },
        holdMicro: 0n,
        callbackToken: crypto.randomBytes(18).toString("base64url"),
        deadlineAt: new Date(Date.now() + 3600_000),
        ...(state === "generating" ? { startedAt: new Date(), providerTaskId: `task-${MARKER}` } : { errorCode: "generation_failed", finishedAt: new Date() }),
      },
      select: { id: true },
    });
  const [runningJob, failedJob] = [await mediaJob("generating"), await mediaJob("failed")];
  const voicePackage = await getDb().voicePackage.create({
    data: {
      accountId: user.id,
      slots: 1,
      priceMicro: 99_000_000n,
      ledgerKey: `tenant:${user.id}:voice_package`,
      expiresAt: new Date(Date.now() + 365 * 86_400_000),
    },
    select: { id: true },
  });
  const voice = await getDb().digitalVoice.create({
    data: {
      ownerAccountId: user.id,
      name: `声音 ${MARKER.slice(-8)}`,
      sampleKind: "personal",
      source: "recorded",
      sampleFileKey: `media/${user.id}/voices/${MARKER}.webm`,
      state: "check_failed",
      check: { problems: ["too_short"], facts: { durationMs: 20_000, loudnessLufs: -23, peakDb: -20 } },
    },
    select: { id: true },
  });
  const figure = await getDb().digitalFigure.create({
    data: {
      ownerAccountId: user.id,
      name: `形象 ${MARKER.slice(-8)}`,
      state: "ready",
      sourceFileKey: `media/${user.id}/figures/${MARKER}.mp4`,
      loopFileKey: `media/${user.id}/figures/${MARKER}.loop.mp4`,
      posterFileKey: `media/${user.id}/figures/${MARKER}.keyed.png`,
    },
    select: { id: true },
  });
  const digitalVideo = await getDb().digitalVideo.create({
    data: { ownerAccountId: user.id, name: `视频 ${MARKER.slice(-8)}`, script: `Script of ${MARKER}` },
    select: { id: true },
  });
  const channel = await getDb().channel.create({
    data: {
      name: `own ${MARKER}`,
      type: "openai",
      baseUrl: "https://api.example.com/v1",
      keyEncrypted: sealSecret(`sk-${MARKER}`),
      keyHint: "sk-…",
      models: [agent.modelKey],
      ownerAccountId: user.id,
    },
    select: { id: true },
  });

  const document = await getDb().trainingDocument.findFirstOrThrow({ where: { trainingSetId: smartSet.id }, select: { id: true } });
  if (uploaded.body?.status !== 200 || media.body?.status !== 200 || withdrawal.body?.status !== 200) {
    throw new Error(`tenant seed: ${JSON.stringify({ uploaded: uploaded.body, media: media.body, withdrawal: withdrawal.body })}`);
  }
  void first;
  return {
    user,
    mysqlDatabase: db.name,
    drop: db.drop,
    ids: {
      account: user.id,
      agent: agent.agentId,
      draftAgent: draft.id,
      version: version.id,
      qaSet: qaSet.id,
      qaItem: qaItem.id,
      smartSet: smartSet.id,
      document: document.id,
      databaseSet: dbSet.id,
      media: media.body.data.id,
      mediaJob: runningJob.id,
      failedMediaJob: failedJob.id,
      voice: voice.id,
      voicePackage: voicePackage.id,
      digitalVideo: digitalVideo.id,
      figure: figure.id,
      app: app.appId,
      apiApp: apiApp.id,
      bot: bot.bot_id,
      botApp: bot.app_id,
      schedule: schedule.id,
      dialogue: dialogue.id,
      message: message.id,
      export: exported.id,
      withdrawal: withdrawal.body.data.id,
      order: order.id,
      channel: channel.id,
      workshop: workshop.id,
      workshopRun: workshopRun.id,
      workshopApp: workshopApp.id,
    },
  };
}

/** Columns through which a row is the tenant's: its own, or its agent's, app's, bot's, set's, dialogue's. */
const OWNING_COLUMNS: Record<string, string> = {
  owner_account_id: "$1",
  account_id: "$1",
  buyer_account_id: "$1",
  agent_id: "SELECT id FROM agent WHERE owner_account_id = $1",
  app_id: "SELECT id FROM app WHERE owner_account_id = $1",
  bot_id: "SELECT id FROM bot WHERE owner_account_id = $1",
  training_set_id: "SELECT id FROM training_set WHERE owner_account_id = $1",
  dialogue_id: "SELECT id FROM dialogue WHERE account_id = $1",
  workshop_id: "SELECT id FROM workshop WHERE owner_account_id = $1",
  run_id: "SELECT id FROM workshop_run WHERE owner_account_id = $1",
};
/** Rows that change by themselves (sessions seen, throttles, heartbeats), not by anybody's call. */
const VOLATILE_TABLES = new Set(["session", "login_attempt", "rate_window", "process_heartbeat", "_prisma_migrations", "schema_migrations"]);

/**
 * Every row that is the tenant's, table by table (found from the schema, so a table added later is
 * read too), and the balances of its wallets.
 */
export async function snapshotTenant(accountId: string): Promise<Record<string, unknown[]>> {
  const columns = await queryDirect<{ table_name: string; column_name: string }>({
    text: "SELECT table_name::text AS table_name, column_name::text AS column_name FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, column_name",
    values: [],
  });
  const byTable = new Map<string, string[]>();
  for (const c of columns) byTable.set(c.table_name, [...(byTable.get(c.table_name) ?? []), c.column_name]);
  const snapshot: Record<string, unknown[]> = {};
  for (const [table, cols] of byTable) {
    if (VOLATILE_TABLES.has(table)) continue;
    const owning = cols.filter((c) => OWNING_COLUMNS[c]);
    const where = [
      ...owning.map((c) => (OWNING_COLUMNS[c] === "$1" ? `"${c}"::text = $1` : `"${c}"::text IN (${OWNING_COLUMNS[c]})`)),
      ...(table === "account" ? ["id = $1"] : []),
      ...(table === "ledger_account" ? ["id LIKE '%:' || $1"] : []),
    ];
    if (!where.length) continue;
    const order = cols.includes("id") ? "ORDER BY id" : "ORDER BY 1";
    const rows = await queryDirect<{ row: string }>({
      text: `SELECT row_to_json(t)::text AS row FROM "${table}" t WHERE ${where.join(" OR ")} ${order}`,
      values: [accountId],
    });
    snapshot[table] = rows.map((r) => JSON.parse(r.row));
  }
  return snapshot;
}

/** What of MARKER an answer carries, for messages: the first place it appears, or null. */
export function findMarker(body: unknown): string | null {
  const text = typeof body === "string" ? body : JSON.stringify(body ?? null);
  const at = text.indexOf(MARKER);
  return at < 0 ? null : text.slice(Math.max(0, at - 120), at + MARKER.length + 40);
}
