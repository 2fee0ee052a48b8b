// Database training sets against the real MariaDB (MYSQL_URL): verification and each of
// its refusals with nothing written; read-only execution and every way out of it refused (writes,
// two statements, LOCAL INFILE, INTO OUTFILE, LOAD_FILE, variables, other tables), the time and row
// limits; other accounts see nothing; the SSE endpoint; a chat turn whose model calls the SQL tool.
import crypto from "node:crypto";
import mysql from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { mapError } from "../../server/errors/map-error";
import { openSecret } from "../../server/lib/secret-box";
import * as sets from "../../server/knowledge/database/database-sets.service";
import { DDL_MAX_CHARS, ZCreateDatabaseSetInput, ZVerifyDatabaseInput } from "../../server/knowledge/database/database-sets.schema";
import { executeReadOnly, runReadOnlyQuery } from "../../server/knowledge/database/mysql-runner";
import { contentOf, dataOf, makeAgent, makeUser, names, sendSse, useChatHarness, type TUser } from "../helpers/chat-runtime";

const MYSQL_URL = new URL(process.env.MYSQL_URL ?? "mysql://root@127.0.0.1:3306");
const HOST = MYSQL_URL.hostname;
const PORT = Number(MYSQL_URL.port || 3306);
const ROOT = { host: HOST, port: PORT, username: decodeURIComponent(MYSQL_URL.username || "root"), password: decodeURIComponent(MYSQL_URL.password) };
const suffix = crypto.randomBytes(4).toString("hex");
const DB = `zl_dbt_${suffix}`;
const RO_USER = `zl_ro_${suffix}`;
const RO_PASSWORD = `Ro-${suffix}-pass`;

const ORDERS_DDL =
  "CREATE TABLE `orders` (\n  `id` int(11) NOT NULL,\n  `customer` varchar(40) NOT NULL COMMENT '客户',\n  `amount` decimal(10,2) DEFAULT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4";
const NUMBERS_DDL = "CREATE TABLE numbers (n INT PRIMARY KEY)";
const DDL = `${ORDERS_DDL};\n${NUMBERS_DDL};`;

const h = useChatHarness();
let admin: mysql.Connection;
let alice: TUser;
let bob: TUser;
const allowBefore = process.env.SSRF_ALLOWLIST;

const rawForm = (over: Record<string, unknown> = {}) => ({
  name: "订单库",
  introduction: "Orders",
  host: HOST,
  port: PORT,
  username: RO_USER,
  password: RO_PASSWORD,
  database: DB,
  ddl: DDL,
  ...over,
});
/** The form as the create procedure hands it to the service: parsed by its input schema. */
const form = (over: Record<string, unknown> = {}) => ZCreateDatabaseSetInput.parse(rawForm(over));
/** The form as the verify procedure hands it over (a password may be left empty). */
const verifyForm = (over: Record<string, unknown> = {}) => ZVerifyDatabaseInput.parse(rawForm(over));
const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e) => e,
  );
  expect(err, "expected a refusal").toBeTruthy();
  return { err, mapped: mapError(err, "en") };
};
const countSetsOf = (user: TUser) => getDb().trainingSet.count({ where: { ownerAccountId: user.id } });
const orderCount = async () => ((await admin.query(`SELECT COUNT(*) AS n FROM \`${DB}\`.orders`)) as any)[0][0].n as number;

beforeAll(async () => {
  process.env.SSRF_ALLOWLIST = [allowBefore, `${HOST}:${PORT}`].filter(Boolean).join(",");
  admin = await mysql.createConnection({ host: HOST, port: PORT, user: ROOT.username, password: ROOT.password, multipleStatements: true });
  await admin.query(`CREATE DATABASE \`${DB}\`; USE \`${DB}\`; ${DDL}`);
  await admin.query("INSERT INTO orders VALUES (1, 'Ada', 10.50), (2, 'Bo', 20.00), (3, 'Cy', 30.25), (4, 'Di', 40.00), (5, 'Ed', NULL)");
  await admin.query("INSERT INTO numbers (n) WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 1000) SELECT n FROM r");
  for (const host of ["%", "localhost", "127.0.0.1"]) {
    await admin.query(`CREATE USER '${RO_USER}'@'${host}' IDENTIFIED BY '${RO_PASSWORD}'`);
    await admin.query(`GRANT SELECT ON \`${DB}\`.* TO '${RO_USER}'@'${host}'`);
  }
  alice = await makeUser(h.api.base);
  bob = await makeUser(h.api.base);
});

afterAll(async () => {
  if (allowBefore === undefined) delete process.env.SSRF_ALLOWLIST;
  else process.env.SSRF_ALLOWLIST = allowBefore;
  if (!admin) return;
  for (const host of ["%", "localhost", "127.0.0.1"]) await admin.query(`DROP USER IF EXISTS '${RO_USER}'@'${host}'`);
  await admin.query(`DROP DATABASE IF EXISTS \`${DB}\``);
  await admin.end();
});

describe("saving and verifying", () => {
  it("verifies, then saves a set of type database: state done, characters counted, the password sealed and never returned", async () => {
    const view = await sets.createDatabaseSet(alice.actor, form());
    expect(view).toMatchObject({
      name: "订单库",
      state: "done",
      failure_reason: null,
      char_count: [...DDL.trim()].length,
      host: HOST,
      port: PORT,
      username: RO_USER,
      database: DB,
      tables: ["orders", "numbers"],
      verify_error: null,
    });
    expect(view.verified_at).toEqual(expect.any(String));
    expect(view.password_hint).toBe("••••••");
    expect(JSON.stringify(view)).not.toContain(RO_PASSWORD);
    const row = await getDb().trainingSet.findUniqueOrThrow({ where: { id: view.id }, include: { database: true } });
    expect(row).toMatchObject({ type: "database", ownerAccountId: alice.id, charCount: view.char_count });
    expect(row.database!.passwordEncrypted).not.toContain(RO_PASSWORD);
    expect(openSecret(row.database!.passwordEncrypted)).toBe(RO_PASSWORD);
    expect(await sets.listDatabaseSets(alice.actor)).toEqual([expect.objectContaining({ id: view.id })]);
  });

  it("the form's verify reports success without writing", async () => {
    const before = await countSetsOf(alice);
    const r = await sets.verifyDatabaseInput(alice.actor, verifyForm());
    expect(r).toMatchObject({ ok: true, tables: ["orders", "numbers"], server_version: expect.stringMatching(/\d+\.\d+/) });
    const bad = await sets.verifyDatabaseInput(alice.actor, verifyForm({ password: "wrong" }));
    expect(bad).toMatchObject({ ok: false, failure: { reason: "access_denied" } });
    expect(await countSetsOf(alice)).toBe(before);
  });

  const failures: Array<[string, Record<string, unknown>, string, RegExp]> = [
    ["a wrong password", { password: "not-the-password" }, "access_denied", /user name or password is wrong/],
    ["a private address (SSRF guard)", { host: "10.255.255.1" }, "host_not_allowed", /10\.255\.255\.1 is a private, loopback or reserved address/],
    ["loopback on a port not allow-listed", { host: "127.0.0.1", port: 3399 }, "host_not_allowed", /127\.0\.0\.1 is a private/],
    ["localhost by name", { host: "localhost" }, "host_not_allowed", /localhost is a private/],
    ["a cloud metadata address", { host: "169.254.169.254", port: 80 }, "host_not_allowed", /169\.254\.169\.254/],
    ["a statement that is not CREATE TABLE", { ddl: `${ORDERS_DDL};\nDROP TABLE orders;` }, "not_create_table", /statement 2 is not a CREATE TABLE statement/],
    ["an INSERT hidden among the statements", { ddl: `INSERT INTO orders VALUES (9, 'x', 1);\n${ORDERS_DDL}` }, "not_create_table", /statement 1 is not/],
    ["statements that do not parse", { ddl: "CREATE TABLE (" }, "ddl_unparsable", /could not be read \(line 1/],
    [
      "a table missing from the database",
      { ddl: `${ORDERS_DDL};\nCREATE TABLE invoices (id INT);` },
      "missing_tables",
      /do not exist in the database: invoices/,
    ],
    ["an unknown database", { database: `${DB}_nope` }, "access_denied", /user name or password|may not connect/],
  ];
  for (const [what, over, reason, message] of failures) {
    it(`refuses ${what}: database verification failed with the reason, nothing written`, async () => {
      const before = await countSetsOf(alice);
      const { err, mapped } = await refusal(sets.createDatabaseSet(alice.actor, form(over)));
      expect(mapped.code).toBe("database_verification_failed");
      expect(err.data).toMatchObject({ reason });
      expect(mapped.envelope.description).toMatch(/^Database verification failed: /);
      expect(mapped.envelope.description).toMatch(message);
      expect(await countSetsOf(alice)).toBe(before);
    });
  }

  it("an unknown database, to a user who may see all databases, says so", async () => {
    const r = await sets.verifyDatabaseInput(alice.actor, verifyForm({ username: ROOT.username, password: ROOT.password, database: `${DB}_nope` }));
    expect(r).toMatchObject({ ok: false, failure: { reason: "unknown_database", params: { database: `${DB}_nope` } } });
  });

  it("refuses statements over 30,000 characters before connecting, in the user's language", async () => {
    const long = `${ORDERS_DDL} COMMENT='${"字".repeat(DDL_MAX_CHARS)}'`;
    const { err, mapped } = await refusal(ZCreateDatabaseSetInput.parseAsync(rawForm({ ddl: long })));
    expect(mapped.code).toBe("validation_failed");
    expect(mapped.envelope.description).toBe("The table-creation statements can have at most 30,000 characters");
    expect(mapError(err, "zh_hans").envelope.description).toBe("建表语句最多 30,000 个字符");
  });

  it("the message is localized: zh_hans", async () => {
    const { err } = await refusal(sets.createDatabaseSet(alice.actor, form({ password: "nope" })));
    expect(mapError(err, "zh_hans").envelope.description).toBe("数据库校验失败：用户名或密码错误，或该用户不能从此处连接");
  });

  it("counts every non-deleted training set of the account against the edition", async () => {
    const basic = await makeUser(h.api.base);
    await getDb().account.update({ where: { id: basic.id }, data: { edition: "basic", editionExpiresAt: null } });
    await getDb().trainingSet.create({ data: { ownerAccountId: basic.id, name: "Q&A", type: "standard" } });
    const { mapped } = await refusal(sets.createDatabaseSet(basic.actor, form()));
    expect(mapped.code).toBe("edition_upgrade_required");
    expect(await countSetsOf(basic)).toBe(1);
  });

  it("verify again records failed with the reason, then done; update keeps the password when left empty", async () => {
    const view = await sets.createDatabaseSet(alice.actor, form({ name: "reverify", ddl: NUMBERS_DDL }));
    await admin.query(`RENAME TABLE \`${DB}\`.numbers TO \`${DB}\`.numbers_away`);
    try {
      const failed = await sets.reverifyDatabaseSet(alice.actor, { id: view.id });
      expect(failed.result).toMatchObject({ ok: false, failure: { reason: "missing_tables", params: { tables: "numbers" } } });
      expect(failed.set).toMatchObject({
        state: "failed",
        failure_reason: "database:verify_errors.missing_tables",
        verify_error: { reason: "missing_tables" },
      });
      // A failed set is not queried.
      const q = await sets.openDatabaseQuery(alice.actor, { trainingSetId: view.id, sql: "SELECT 1" }).then(
        () => null,
        (e) => e,
      );
      expect(mapError(q, "en").envelope.description).toBe("The query failed: the training set has not been verified");
    } finally {
      await admin.query(`RENAME TABLE \`${DB}\`.numbers_away TO \`${DB}\`.numbers`);
    }
    const again = await sets.reverifyDatabaseSet(alice.actor, { id: view.id });
    expect(again.set).toMatchObject({ state: "done", failure_reason: null, verify_error: null });

    const updated = await sets.updateDatabaseSet(alice.actor, { ...form({ ddl: DDL, name: "renamed" }), id: view.id, password: "" });
    expect(updated).toMatchObject({ name: "renamed", state: "done", tables: ["orders", "numbers"] });
    const row = await getDb().databaseSource.findUniqueOrThrow({ where: { trainingSetId: view.id } });
    expect(openSecret(row.passwordEncrypted)).toBe(RO_PASSWORD);
    // A refused update changes nothing.
    const { mapped } = await refusal(sets.updateDatabaseSet(alice.actor, { ...form({ ddl: "DROP TABLE orders" }), id: view.id, password: "" }));
    expect(mapped.code).toBe("database_verification_failed");
    expect((await sets.getDatabaseSet(alice.actor, { id: view.id })).ddl).toBe(DDL.trim());
  });

  it("another account's set is not found, for every action", async () => {
    const view = await sets.createDatabaseSet(alice.actor, form({ name: "private" }));
    for (const attempt of [
      () => sets.getDatabaseSet(bob.actor, { id: view.id }),
      () => sets.reverifyDatabaseSet(bob.actor, { id: view.id }),
      () => sets.updateDatabaseSet(bob.actor, { ...form(), id: view.id }),
      () => sets.deleteDatabaseSet(bob.actor, { id: view.id }),
      () => sets.openDatabaseQuery(bob.actor, { trainingSetId: view.id, sql: "SELECT * FROM orders" }),
      () => sets.verifyDatabaseInput(bob.actor, { ...form(), password: "", id: view.id }),
    ]) {
      expect((await refusal(attempt())).mapped.code).toBe("not_found");
    }
    expect(await sets.listDatabaseSets(bob.actor)).toEqual([]);
    await sets.deleteDatabaseSet(alice.actor, { id: view.id });
    expect((await refusal(sets.getDatabaseSet(alice.actor, { id: view.id }))).mapped.code).toBe("not_found");
  });
});

describe("read-only execution", () => {
  const source = () => ({ host: HOST, port: PORT, username: RO_USER, password: RO_PASSWORD, database: DB, tables: ["orders", "numbers"] });
  const rootSource = () => ({ ...ROOT, database: DB });
  const opts = { rowLimit: 100, timeoutMs: 5000 };

  it("a SELECT returns the rows, with WITH … SELECT, joins and aggregates", async () => {
    const r = await runReadOnlyQuery(source(), "SELECT id, customer, amount FROM orders WHERE amount IS NOT NULL ORDER BY id", opts);
    expect(r).toMatchObject({
      columns: ["id", "customer", "amount"],
      truncated: false,
      rows: [
        [1, "Ada", "10.50"],
        [2, "Bo", "20.00"],
        [3, "Cy", "30.25"],
        [4, "Di", "40.00"],
      ],
    });
    const cte = await runReadOnlyQuery(
      source(),
      "WITH big AS (SELECT * FROM orders WHERE amount > 15) SELECT COUNT(*) AS n, SUM(b.amount) AS total FROM big b JOIN numbers x ON x.n = b.id",
      opts,
    );
    // BIGINT and DECIMAL come as the server writes them (exact, and safe in JSON).
    expect(cte.rows).toEqual([["3", "90.25"]]);
  });

  it("fetches at most the row limit and says it truncated", async () => {
    const r = await runReadOnlyQuery(source(), "SELECT n FROM numbers ORDER BY n", { rowLimit: 3, timeoutMs: 5000 });
    expect(r).toMatchObject({ rows: [[1], [2], [3]], truncated: true, row_limit: 3 });
    const all = await runReadOnlyQuery(source(), "SELECT id FROM orders", { rowLimit: 5, timeoutMs: 5000 });
    expect(all).toMatchObject({ truncated: false });
    expect(all.rows).toHaveLength(5);
  });

  const refused: Array<[string, string, RegExp]> = [
    ["INSERT", "INSERT INTO orders VALUES (9, 'x', 1)", /only SELECT statements can run \(INSERT/],
    ["UPDATE", "UPDATE orders SET amount = 0", /only SELECT statements can run \(UPDATE/],
    ["DELETE", "DELETE FROM orders", /only SELECT statements can run \(DELETE/],
    ["DROP", "DROP TABLE orders", /only SELECT statements can run \(DROP/],
    ["two statements", "SELECT 1; DROP TABLE orders", /only one statement can run at a time/],
    ["a SELECT then a SELECT", "SELECT * FROM orders; SELECT * FROM numbers", /only one statement/],
    ["LOAD DATA LOCAL INFILE", "LOAD DATA LOCAL INFILE '/etc/passwd' INTO TABLE orders", /refused/],
    ["INTO OUTFILE", "SELECT * FROM orders INTO OUTFILE '/tmp/zl-orders.txt'", /SELECT … INTO/],
    ["INTO DUMPFILE", "SELECT customer FROM orders LIMIT 1 INTO DUMPFILE '/tmp/zl-dump.txt'", /SELECT … INTO/],
    ["INTO a variable", "SELECT customer INTO @c FROM orders LIMIT 1", /INTO|variables/],
    ["LOAD_FILE", "SELECT LOAD_FILE('/etc/passwd')", /the function LOAD_FILE is not allowed/],
    ["LOAD_FILE in a WHERE", "SELECT id FROM orders WHERE customer = LOAD_FILE('/etc/passwd')", /LOAD_FILE/],
    ["SLEEP", "SELECT SLEEP(30)", /the function SLEEP is not allowed/],
    ["BENCHMARK", "SELECT BENCHMARK(100000000, MD5('x'))", /the function BENCHMARK is not allowed/],
    ["a system variable", "SELECT @@version", /variables cannot be read or set/],
    ["FOR UPDATE", "SELECT * FROM orders FOR UPDATE", /locking reads/],
    ["LOCK IN SHARE MODE", "SELECT * FROM orders LOCK IN SHARE MODE", /refused/],
    ["a table not in the set", "SELECT * FROM mysql.user", /the table mysql\.user is not one of this training set's tables/],
    ["information_schema", "SELECT * FROM information_schema.tables", /information_schema\.tables is not one/],
    ["a subquery on another table", "SELECT (SELECT COUNT(*) FROM secrets) FROM orders", /the table secrets/],
    ["an executable comment", "SELECT id /*!, LOAD_FILE('/etc/passwd') */ FROM orders", /comments the server executes/],
    ["an optimizer hint", "SELECT /*+ MAX_EXECUTION_TIME(100000000) */ id FROM orders", /comments the server executes or reads as hints/],
  ];
  for (const [what, sql, message] of refused) {
    it(`refuses ${what} before connecting`, async () => {
      const { mapped } = await refusal(runReadOnlyQuery(source(), sql, opts));
      expect(mapped.code).toBe("sql_refused");
      expect(mapped.envelope.description).toMatch(/^This query was refused: /);
      expect(mapped.envelope.description).toMatch(message);
    });
  }

  it("if the parser were fooled: the read-only transaction refuses a write, even to root", async () => {
    const before = await orderCount();
    const { mapped } = await refusal(executeReadOnly(rootSource(), "INSERT INTO orders VALUES (99, 'x', 1)", opts));
    expect(mapped.code).toBe("sql_failed");
    expect(mapped.envelope.description).toMatch(/READ ONLY transaction/);
    expect(await orderCount()).toBe(before);
  });

  it("if the parser were fooled: LOAD DATA LOCAL INFILE is impossible (the client offers no local files)", async () => {
    const { mapped } = await refusal(executeReadOnly(rootSource(), "LOAD DATA LOCAL INFILE '/etc/passwd' INTO TABLE orders", opts));
    expect(mapped.code).toBe("sql_failed");
    expect(mapped.envelope.description).toMatch(/local infile|not allowed/i);
  });

  it("if the parser were fooled: two statements cannot run on one connection", async () => {
    const { mapped } = await refusal(executeReadOnly(rootSource(), "SELECT 1; DROP TABLE orders", opts));
    expect(mapped.code).toBe("sql_failed");
    expect(await orderCount()).toBeGreaterThan(0);
  });

  it("SLEEP beyond the time limit ends by the server's time limit", async () => {
    const started = Date.now();
    const { mapped } = await refusal(executeReadOnly(rootSource(), "SELECT SLEEP(20)", { rowLimit: 10, timeoutMs: 1000 }));
    expect(mapped.code).toBe("sql_timeout");
    expect(mapped.envelope.description).toBe("The query ran longer than 1 seconds and was stopped");
    expect(Date.now() - started).toBeLessThan(3500);
  });

  it("a slow SELECT the guard allows ends by the time limit too", async () => {
    const started = Date.now();
    const { mapped } = await refusal(
      runReadOnlyQuery(source(), "SELECT COUNT(*) FROM numbers a, numbers b, numbers c, numbers d WHERE a.n + b.n + c.n = d.n", {
        rowLimit: 10,
        timeoutMs: 1000,
      }),
    );
    expect(mapped.code).toBe("sql_timeout");
    expect(Date.now() - started).toBeLessThan(3500);
  });

  it("a private address is refused when querying too", async () => {
    const { mapped } = await refusal(runReadOnlyQuery({ ...source(), host: "192.168.1.10" }, "SELECT id FROM orders", opts));
    expect(mapped.code).toBe("sql_failed");
    expect(mapped.envelope.description).toBe("The query failed: 192.168.1.10 is a private, loopback or reserved address");
  });
});

describe("POST /api/v1/training/database/mysql/req/result", () => {
  const PATH = "/api/v1/training/database/mysql/req/result";
  let setId: string;
  beforeAll(async () => {
    setId = (await sets.createDatabaseSet(alice.actor, form({ name: "sse" }))).id;
  });

  it("streams function (the SQL), message (a table), then close with the row count", async () => {
    const sql = "SELECT id, customer FROM orders ORDER BY id LIMIT 2";
    const r = await sendSse(h.api.base, alice, { training_set_id: setId, sql, ctype: 0, ufids: "[]" }, { path: PATH });
    expect(r.headers.get("content-type")).toContain("text/event-stream");
    expect(names(r)).toEqual(["function", "message", "close"]);
    expect(dataOf(r, "function")[0]).toEqual({ name: "sql_generate_and_data_query", type: "response", params: { sql } });
    expect(contentOf(r)).toBe("| id | customer |\n| --- | --- |\n| 1 | Ada |\n| 2 | Bo |");
    expect(dataOf(r, "close")[0]).toMatchObject({ rows: 2, truncated: false, columns: ["id", "customer"], retrieve: [] });
  });

  it("refusals are error events in the user's language", async () => {
    const write = await sendSse(h.api.base, alice, { training_set_id: setId, sql: "DELETE FROM orders" }, { path: PATH });
    expect(names(write)).toEqual(["error"]);
    expect(dataOf(write, "error")[0]).toMatchObject({
      status: 420501,
      description: "This query was refused: only SELECT statements can run (DELETE is not allowed)",
    });
    alice.browser.cookies.set("lang", "zh_hans");
    try {
      const two = await sendSse(h.api.base, alice, { training_set_id: setId, sql: "SELECT 1; SELECT 2" }, { path: PATH });
      expect(dataOf(two, "error")[0].description).toBe("该查询被拒绝：每次只能执行一条语句");
    } finally {
      alice.browser.cookies.set("lang", "en");
    }
    const other = await sendSse(h.api.base, bob, { training_set_id: setId, sql: "SELECT * FROM orders" }, { path: PATH });
    expect(names(other)).toEqual(["error"]);
    expect(dataOf(other, "error")[0].status).toBe(404001);
    // Without the CSRF echo the write is refused before anything runs.
    const noCsrf = await alice.browser.call(PATH, { body: { training_set_id: setId, sql: "SELECT 1" }, csrf: null });
    expect(noCsrf.body.status).toBe(420114);
    const anonymous = await fetch(`${h.api.base}${PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: "zl_csrf=x", "x-csrf-token": "x" },
      body: JSON.stringify({ training_set_id: setId, sql: "SELECT 1" }),
    });
    expect(await anonymous.text()).toContain('"status":110003');
  });
});

describe("chat", () => {
  it("an agent with a database set offers sql_generate_and_data_query; the rows reach the model", async () => {
    const set = await sets.createDatabaseSet(alice.actor, form({ name: "chat" }));
    const { agentId, key } = await makeAgent(h, alice, { config: { training_set_ids: [set.id] } });
    const sql = "SELECT customer, amount FROM orders WHERE id <= 2 ORDER BY id";
    const r = await sendSse(h.api.base, alice, { agent_id: agentId, content: `Who ordered? [[tool:sql_generate_and_data_query ${JSON.stringify({ sql })}]]` });
    expect(names(r)).toEqual(["message", "function", "message", "message", "message", "close"]);
    const [fn] = dataOf(r, "function");
    expect(fn).toMatchObject({
      name: "sql_generate_and_data_query",
      type: "response",
      params: { arguments: { sql }, code: sql, result: { rows: 2, truncated: false } },
    });
    expect(fn.params.result.table).toContain("| Ada | 10.50 |");

    const [first, second] = h.fake.receivedFor(key);
    const tool = first.body.tools.find((t: any) => t.function.name === "sql_generate_and_data_query");
    expect(tool.function.description).toContain("CREATE TABLE `orders`");
    expect(tool.function.parameters.required).toEqual(["sql"]);
    const result = second.body.messages.at(-1);
    expect(result.role).toBe("tool");
    expect(JSON.parse(result.content)).toEqual({
      columns: ["customer", "amount"],
      rows: [
        ["Ada", "10.50"],
        ["Bo", "20.00"],
      ],
      row_count: 2,
      truncated: false,
    });
  });

  it("a refused query is told to the model, and the chat goes on", async () => {
    const set = await sets.createDatabaseSet(alice.actor, form({ name: "chat refused" }));
    const { agentId, key } = await makeAgent(h, alice, { config: { training_set_ids: [set.id] } });
    const before = await orderCount();
    const r = await sendSse(h.api.base, alice, {
      agent_id: agentId,
      content: `[[tool:sql_generate_and_data_query ${JSON.stringify({ sql: "DELETE FROM orders" })}]]`,
    });
    expect(names(r).at(-1)).toBe("close");
    expect(dataOf(r, "function")[0].params.error).toMatch(/only SELECT statements can run/);
    expect(h.fake.receivedFor(key)[1].body.messages.at(-1).content).toMatch(/^The query failed: This query was refused/);
    expect(await orderCount()).toBe(before);
  });

  it("an agent whose sets are not database sets is offered no SQL tool", async () => {
    const qa = await getDb().trainingSet.create({ data: { ownerAccountId: alice.id, name: "Q&A", type: "standard" } });
    const { agentId, key } = await makeAgent(h, alice, { config: { training_set_ids: [qa.id] } });
    for (let i = 0; i < 2; i++) await sendSse(h.api.base, alice, { agent_id: agentId, content: "hello" });
    for (const sent of h.fake.receivedFor(key)) expect(sent.body.tools).toBeUndefined();
  });

  it("another account's database set listed in an agent is not offered", async () => {
    const bobs = await sets.createDatabaseSet(bob.actor, form({ name: "bob's" }));
    const { agentId, key } = await makeAgent(h, alice);
    // The builder refuses such an id; a configuration that holds one anyway still reaches nothing.
    const version = await getDb().agentVersion.findFirstOrThrow({ where: { agentId } });
    await getDb().agentVersion.update({ where: { id: version.id }, data: { config: { ...(version.config as object), training_set_ids: [bobs.id] } } });
    await sendSse(h.api.base, alice, { agent_id: agentId, content: "hello" });
    expect(h.fake.receivedFor(key)[0].body.tools).toBeUndefined();
  });
});
