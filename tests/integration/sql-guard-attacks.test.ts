// The text-to-SQL guard against the real MariaDB (MYSQL_URL), attacked the way an outsider would:
// comment variants, quotes and escapes, executable comments, stacked statements, UNION and
// subqueries into undeclared tables, WITH names shadowing tables, backtick tricks, file functions,
// INTO OUTFILE/DUMPFILE, SLEEP and BENCHMARK, the server's own databases. Each attack goes through
// the runner (guard first) to the server as a user with every privilege, FILE included: the grants
// stop nothing here, so whatever holds is the guard's doing. Sentinels: a file holding a random
// token where LOAD_FILE can read it, undeclared tables (in the set's database and in another one)
// holding tokens, and a path INTO OUTFILE would write. A test fails if a token comes back in any
// form, a file appears, or a table changes. The main attack is also driven through the HTTP
// endpoint and the chat's SQL tool.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import mysql from "mysql2/promise";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mapError } from "../../server/errors/map-error";
import * as sets from "../../server/knowledge/database/database-sets.service";
import { executeReadOnly, limitSession, openConnection, runReadOnlyQuery, SESSION_SQL_MODE } from "../../server/knowledge/database/mysql-runner";
import { assertReadOnlySelect } from "../../server/knowledge/database/sql-guard";
import { dataOf, makeAgent, makeUser, names, sendSse, useChatHarness, type TUser } from "../helpers/chat-runtime";

const MYSQL_URL = new URL(process.env.MYSQL_URL ?? "mysql://root@127.0.0.1:3306/mysql");
const HOST = MYSQL_URL.hostname;
const PORT = Number(MYSQL_URL.port || 3306);
const ROOT = { host: HOST, port: PORT, username: decodeURIComponent(MYSQL_URL.username || "root"), password: decodeURIComponent(MYSQL_URL.password) };
const suffix = crypto.randomBytes(4).toString("hex");
// A user with every privilege on everything, FILE included (a set needs a password, root here has
// none): what it cannot do, the guard stopped.
const SUPER = { host: HOST, port: PORT, username: `zl_sqlguard_${suffix}`, password: `Super-${suffix}-pass` };
const USER_HOSTS = ["%", "localhost", "127.0.0.1"];
const DB = `zl_sqlguard_${suffix}`;
const OTHER_DB = `zl_sqlguard_${suffix}_other`;
const FILE_TOKEN = `zlfile${crypto.randomBytes(8).toString("hex")}`;
const TABLE_TOKEN = `zltable${crypto.randomBytes(8).toString("hex")}`;
const OTHER_TOKEN = `zlother${crypto.randomBytes(8).toString("hex")}`;
const TOKENS = [FILE_TOKEN, TABLE_TOKEN, OTHER_TOKEN];
const DDL =
  "CREATE TABLE `orders` (\n  `id` int(11) NOT NULL,\n  `customer` varchar(40) NOT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4";
const opts = { rowLimit: 100, timeoutMs: 5000 };
const source = () => ({ ...SUPER, database: DB, tables: ["orders"] });

const h = useChatHarness();
let admin: mysql.Connection;
let alice: TUser;
let sentinelFile = "";
let fileReadable = false;
let filePrivBlocks = false;
let outFile = "";
let tablesBefore = "";
const allowBefore = process.env.SSRF_ALLOWLIST;

const hex = (s: string) => Buffer.from(s).toString("hex");
const charCodes = (s: string) => [...s].map((c) => c.charCodeAt(0)).join(",");

/** A token in any shape a query could return it: as is, hex (the runner's form for bytes), base64, reversed. */
function leakedToken(text: string): string | null {
  const haystack = text.toLowerCase();
  for (const token of TOKENS) {
    const shapes = [token, hex(token), Buffer.from(token).toString("base64"), [...token].reverse().join("")].map((s) => s.toLowerCase());
    if (shapes.some((s) => haystack.includes(s))) return token;
  }
  return null;
}

/** Every table of both databases with its rows: any write shows. */
async function snapshotTables() {
  const parts: string[] = [];
  for (const db of [DB, OTHER_DB]) {
    const [tables] = (await admin.query("SELECT TABLE_NAME AS t FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?", [db])) as any;
    for (const t of tables.map((r: { t: string }) => r.t).sort()) {
      const [rows] = (await admin.query(`SELECT * FROM \`${db}\`.\`${t}\``)) as any;
      parts.push(`${db}.${t}=${JSON.stringify(rows)}`);
    }
  }
  return parts.join("\n");
}

/** Whether the server wrote the file, seen from this process and from the server's side. */
async function outFileWritten() {
  if (fs.existsSync(outFile)) return true;
  const [[row]] = (await admin.query("SELECT LOAD_FILE(?) IS NOT NULL AS seen", [outFile])) as any;
  return Number(row.seen) === 1;
}

/** What a run answers, rows or refusal, as one text to search for tokens. */
async function runAsSuper(sql: string) {
  return runReadOnlyQuery(source(), sql, opts).then(
    (r) => ({ ok: true as const, text: JSON.stringify(r), err: null }),
    (err) => ({ ok: false as const, text: `${mapError(err, "en").envelope.description} ${JSON.stringify(err?.data ?? {})}`, err }),
  );
}

function guardRefusal(sql: string) {
  try {
    assertReadOnlySelect(sql, { tables: ["orders"], database: DB });
    return null;
  } catch (err) {
    return err as { code: string; data: { reason: string } };
  }
}

beforeAll(async () => {
  process.env.SSRF_ALLOWLIST = [allowBefore, `${HOST}:${PORT}`].filter(Boolean).join(",");
  admin = await mysql.createConnection({ host: HOST, port: PORT, user: ROOT.username, password: ROOT.password, multipleStatements: true });
  await admin.query(`CREATE DATABASE \`${DB}\`; CREATE DATABASE \`${OTHER_DB}\`; USE \`${DB}\`; ${DDL}`);
  await admin.query("INSERT INTO orders VALUES (1, 'Ada'), (2, 'O''Brien'), (3, 'Cy')");
  // Undeclared tables: one beside orders, one that differs from it only in case (the server on
  // Linux tells them apart), and orders in another database.
  await admin.query(`CREATE TABLE secrets (v varchar(64)); INSERT INTO secrets VALUES ('${TABLE_TOKEN}')`);
  await admin.query(`CREATE TABLE ORDERS (id varchar(64)); INSERT INTO ORDERS VALUES ('${TABLE_TOKEN}')`);
  for (const host of USER_HOSTS) {
    await admin.query(`CREATE USER '${SUPER.username}'@'${host}' IDENTIFIED BY '${SUPER.password}'`);
    await admin.query(`GRANT ALL PRIVILEGES ON *.* TO '${SUPER.username}'@'${host}'`);
  }
  await admin.query(
    `CREATE TABLE \`${OTHER_DB}\`.orders (id varchar(64), customer varchar(64)); INSERT INTO \`${OTHER_DB}\`.orders VALUES ('${OTHER_TOKEN}', '${OTHER_TOKEN}')`,
  );

  // The file goes where LOAD_FILE may read: secure_file_priv's directory when the server has one.
  const [[{ priv }]] = (await admin.query("SELECT @@secure_file_priv AS priv")) as any;
  const dir = priv ? String(priv) : os.tmpdir();
  sentinelFile = path.join(dir, `zl_sqlguard_${suffix}.txt`);
  outFile = path.join(dir, `zl_sqlguard_${suffix}_out.txt`);
  try {
    fs.writeFileSync(sentinelFile, `${FILE_TOKEN}\n`, { mode: 0o644 });
  } catch {
    filePrivBlocks = !!priv;
  }
  const [[row]] = (await admin.query("SELECT LOAD_FILE(?) AS f", [sentinelFile])) as any;
  fileReadable = String(row.f ?? "").includes(FILE_TOKEN);
  tablesBefore = await snapshotTables();
  alice = await makeUser(h.api.base);
});

afterEach(async () => {
  expect(await outFileWritten(), "a file was written").toBe(false);
  expect(await snapshotTables(), "a table changed").toBe(tablesBefore);
});

afterAll(async () => {
  if (allowBefore === undefined) delete process.env.SSRF_ALLOWLIST;
  else process.env.SSRF_ALLOWLIST = allowBefore;
  if (sentinelFile) fs.rmSync(sentinelFile, { force: true });
  if (!admin) return;
  for (const host of USER_HOSTS) await admin.query(`DROP USER IF EXISTS '${SUPER.username}'@'${host}'`);
  await admin.query(`DROP DATABASE IF EXISTS \`${DB}\`; DROP DATABASE IF EXISTS \`${OTHER_DB}\``);
  await admin.end();
});

describe("the sentinels", () => {
  it("are real: LOAD_FILE reads the file unless secure_file_priv forbids it, the tables hold their tokens", async () => {
    // Where secure_file_priv names a directory this process cannot write, LOAD_FILE cannot reach the
    // file: the attacks below are still asserted refused by the guard, the file sentinel proves less.
    expect(fileReadable || filePrivBlocks, `LOAD_FILE cannot read ${sentinelFile} although secure_file_priv allows it`).toBe(true);
    expect(tablesBefore).toContain(TABLE_TOKEN);
    expect(tablesBefore).toContain(OTHER_TOKEN);
  });

  // Without the guard the same texts reach the tokens: what the guard refuses is a real attack.
  it.each([
    ["--0 then UNION LOAD_FILE", () => `SELECT customer FROM orders WHERE id = 1 --0 UNION SELECT LOAD_FILE(0x${hex(sentinelFile)})`, () => FILE_TOKEN],
    ["--0 then UNION an undeclared table", () => "SELECT customer FROM orders WHERE id = 1 --0 UNION SELECT v FROM secrets", () => TABLE_TOKEN],
    ["an executable comment", () => "SELECT customer FROM orders WHERE id = 1 /*!50000 UNION SELECT v FROM secrets */", () => TABLE_TOKEN],
    ["a WITH name shadowing the table it reads", () => "WITH secrets AS (SELECT * FROM secrets) SELECT * FROM secrets", () => TABLE_TOKEN],
  ])("control, %s: the server alone returns the token", async (_what, sql, token) => {
    const r = await executeReadOnly(source(), sql(), opts);
    if (token() === FILE_TOKEN && !fileReadable) return expect(JSON.stringify(r.rows)).toContain("null");
    expect(leakedToken(JSON.stringify(r.rows))).toBe(token());
  });
});

type TAttack = [what: string, sql: () => string, refusal: string | null];
const ATTACKS: TAttack[] = [
  // Comments, every form; `--` glued to anything is two minus signs to the server.
  ["--0 (the reported attack)", () => `SELECT id FROM orders WHERE id = 1 --0 UNION SELECT LOAD_FILE(0x${hex(sentinelFile)})`, "comment"],
  ["--0 into an undeclared table", () => "SELECT customer FROM orders WHERE id = 1 --0 UNION SELECT v FROM secrets", "comment"],
  ["--1 arithmetic", () => "SELECT 1--1 FROM orders", "comment"],
  ["--\\t", () => "SELECT customer FROM orders --\tx\nUNION SELECT v FROM secrets", "comment"],
  ["-- at the very end", () => "SELECT customer FROM orders -- ", "comment"],
  ["-- at the very end, no space", () => "SELECT customer FROM orders --", "comment"],
  ["-- then a newline", () => "SELECT customer FROM orders WHERE id = 1 --\nUNION SELECT v FROM secrets", "comment"],
  ["#", () => "SELECT customer FROM orders # x\nUNION SELECT v FROM secrets", "comment"],
  ["/* */", () => "SELECT customer FROM orders /* x */ UNION SELECT v FROM secrets", "comment"],
  ["/*! */", () => "SELECT customer FROM orders WHERE id = 1 /*! UNION SELECT v FROM secrets */", "executable_comment"],
  ["/*!50000 */", () => "SELECT customer FROM orders WHERE id = 1 /*!50000 UNION SELECT v FROM secrets */", "executable_comment"],
  ["/*M!50000 */", () => "SELECT customer FROM orders WHERE id = 1 /*M!50000 UNION SELECT v FROM secrets */", "executable_comment"],
  ["/*+ hint */", () => "SELECT /*+ MAX_EXECUTION_TIME(100000000) */ customer FROM orders", "executable_comment"],
  ["nested comments", () => "SELECT customer FROM orders /* /* */ UNION SELECT v FROM secrets /* */ */", "comment"],
  ["an executable comment inside a plain one", () => "SELECT customer FROM orders /* /*! UNION SELECT v FROM secrets */", "comment"],
  ["comment markers inside a string (harmless)", () => "SELECT customer FROM orders WHERE customer = '--0 /*! # */ UNION SELECT v FROM secrets'", null],
  // Quotes and escapes.
  [
    "\\' ends nowhere under one sql_mode, somewhere under the other",
    () => "SELECT customer FROM orders WHERE customer = '\\'' UNION SELECT v FROM secrets WHERE '1' = '1'",
    "escape",
  ],
  ['\\" in a double-quoted string', () => 'SELECT customer FROM orders WHERE customer = "\\"" UNION SELECT v FROM secrets WHERE "1" = "1"', "escape"],
  ["a string ending in \\\\", () => "SELECT customer FROM orders WHERE customer = 'a\\\\' UNION SELECT v FROM secrets WHERE '1' = '1'", "escape"],
  ["\\N", () => "SELECT \\N FROM orders", "escape"],
  ["a doubled quote (harmless)", () => "SELECT customer FROM orders WHERE customer = 'O''Brien' OR customer = \"a\"\"b\"", null],
  [
    "the other quote inside a string, then a table",
    () => 'SELECT customer FROM orders WHERE customer = "\'" UNION SELECT v FROM secrets WHERE "\'" = "\'"',
    "table",
  ],
  ["an unterminated string", () => "SELECT customer FROM orders WHERE customer = 'x UNION SELECT v FROM secrets", "unterminated"],
  ["NUL inside a string", () => "SELECT customer FROM orders WHERE customer = 'x\0' UNION SELECT v FROM secrets", "character"],
  ["a zero-width space", () => "SELECT customer FROM orders\u200b UNION SELECT v FROM secrets", "character"],
  ["a fullwidth letter", () => "SELECT v FROM ｓecrets", "character"],
  ["a number glued to a keyword", () => "SELECT 1e1from secrets", "ambiguous"],
  ["an ODBC escape", () => `SELECT {fn LOAD_FILE(0x${hex(sentinelFile)})} FROM orders`, "ambiguous"],
  // Stacked statements.
  ["; DROP", () => "SELECT customer FROM orders; DROP TABLE orders", "one_statement"],
  ["; SELECT an undeclared table", () => "SELECT customer FROM orders; SELECT v FROM secrets", "one_statement"],
  ["; INSERT on the next line", () => "SELECT customer FROM orders;\nINSERT INTO secrets VALUES ('x')", "one_statement"],
  ["writes", () => "UPDATE secrets SET v = 'x'", "not_select"],
  ["DROP", () => "DROP TABLE secrets", "not_select"],
  // Tables the set never declared.
  ["UNION into an undeclared table", () => "SELECT customer FROM orders UNION SELECT v FROM secrets", "table"],
  ["UNION into another database", () => `SELECT customer FROM orders UNION SELECT customer FROM ${OTHER_DB}.orders`, "table"],
  ["a table that differs only in case", () => "SELECT id FROM ORDERS", "table"],
  ["a subquery in the column list", () => "SELECT (SELECT v FROM secrets LIMIT 1) FROM orders", "table"],
  ["EXISTS as an oracle", () => "SELECT customer FROM orders WHERE EXISTS (SELECT 1 FROM secrets WHERE v LIKE 'zl%')", "table"],
  ["a derived table", () => "SELECT * FROM (SELECT v FROM secrets) s", "table"],
  ["a join", () => "SELECT o.customer, s.v FROM orders o JOIN secrets s", "table"],
  // WITH names: in scope only where the server sees them.
  ["a WITH name shadowing the table it reads", () => "WITH secrets AS (SELECT * FROM secrets) SELECT * FROM secrets", "table"],
  ["a WITH named like a declared table, reading another", () => "WITH orders AS (SELECT v AS customer FROM secrets) SELECT customer FROM orders", "table"],
  ["a WITH reading a later WITH's name", () => "WITH a AS (SELECT * FROM secrets), secrets AS (SELECT 1 AS v) SELECT * FROM a", "table"],
  ["a name that differs from a WITH name only in case", () => "WITH orders AS (SELECT 'x' AS id) SELECT id FROM ORDERS", "table"],
  ["a WITH over a declared table (harmless)", () => "WITH secrets AS (SELECT customer AS v FROM orders) SELECT v FROM secrets", null],
  // Backticks.
  ["a backticked undeclared table", () => "SELECT v FROM `secrets`", "table"],
  ["a backticked other database", () => `SELECT customer FROM \`${OTHER_DB}\`.\`orders\``, "table"],
  ["the own database, an undeclared table", () => `SELECT v FROM \`${DB}\`.\`secrets\``, "table"],
  ["a doubled backtick", () => "SELECT * FROM `orders``secrets`", "ambiguous"],
  ["a dot inside backticks", () => `SELECT * FROM \`${OTHER_DB}.orders\``, "table"],
  ["a backticked function name", () => "SELECT `sleep`(5) FROM orders", "function"],
  // Files.
  ["LOAD_FILE", () => `SELECT LOAD_FILE('${sentinelFile}')`, "function"],
  ["LOAD_FILE in a WHERE", () => `SELECT customer FROM orders WHERE customer = LOAD_FILE(0x${hex(sentinelFile)})`, "function"],
  ["LOAD_FILE of CHAR()", () => `SELECT HEX(LOAD_FILE(CHAR(${charCodes(sentinelFile)})))`, "function"],
  ["INTO OUTFILE", () => `SELECT * FROM orders INTO OUTFILE '${outFile}'`, "into"],
  ["INTO OUTFILE before FROM", () => `SELECT * INTO OUTFILE '${outFile}' FROM orders`, "into"],
  ["INTO DUMPFILE", () => `SELECT customer FROM orders LIMIT 1 INTO DUMPFILE '${outFile}'`, "into"],
  ["INTO a variable", () => "SELECT customer INTO @c FROM orders LIMIT 1", "variables"],
  ["LOAD DATA", () => `LOAD DATA INFILE '${sentinelFile}' INTO TABLE secrets`, "not_select"],
  ["LOAD DATA LOCAL", () => `LOAD DATA LOCAL INFILE '${sentinelFile}' INTO TABLE secrets`, "not_select"],
  [
    "CHAR() and hex literals naming a table (harmless)",
    () => `SELECT CHAR(${charCodes("secrets")}), 0x${hex("secrets")}, x'${hex("secrets")}' FROM orders`,
    null,
  ],
  // Time.
  ["SLEEP", () => "SELECT SLEEP(5)", "function"],
  ["SLEEP in a WHERE", () => "SELECT customer FROM orders WHERE SLEEP(5) = 0", "function"],
  ["BENCHMARK", () => "SELECT BENCHMARK(500000000, MD5('x'))", "function"],
  ["SET STATEMENT lifting the time limit", () => "SET STATEMENT max_statement_time = 0 FOR SELECT SLEEP(5)", "unparsable"],
  // The server's own databases and state.
  ["information_schema.tables", () => "SELECT table_name FROM information_schema.tables", "table"],
  ["INFORMATION_SCHEMA in capitals", () => "SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES", "table"],
  ["mysql.user", () => "SELECT user, authentication_string FROM mysql.user", "table"],
  ["performance_schema", () => "SELECT * FROM performance_schema.threads", "table"],
  ["sys", () => "SELECT * FROM sys.version", "table"],
  ["a system variable", () => "SELECT @@datadir", "variables"],
  ["USER()", () => "SELECT USER() FROM orders", "function"],
  ["a stored function in another database", () => `SELECT ${OTHER_DB}.f() FROM orders`, "function"],
  // Other statements and clauses.
  ["PROCEDURE ANALYSE", () => "SELECT * FROM orders PROCEDURE ANALYSE()", "unparsable"],
  ["HANDLER", () => "HANDLER secrets OPEN", "unparsable"],
  ["FOR UPDATE", () => "SELECT * FROM orders FOR UPDATE", "locking_read"],
  ["LOCK IN SHARE MODE", () => "SELECT * FROM orders LOCK IN SHARE MODE", "locking_read"],
];

describe("attacks through the guard, then the real server with every privilege", () => {
  it.each(ATTACKS)("%s", async (_what, text, refusal) => {
    const sql = text();
    const started = Date.now();
    const run = await runAsSuper(sql);
    expect(leakedToken(run.text), `a sentinel came back: ${run.text.slice(0, 300)}`).toBeNull();
    expect(guardRefusal(sql)?.data.reason ?? null).toBe(refusal);
    if (refusal) {
      expect(run.ok).toBe(false);
      expect(mapError(run.err, "en").code).toBe("sql_refused");
      // Refused before connecting: no server time spent.
      expect(Date.now() - started).toBeLessThan(1000);
      for (const lng of ["zh_hans", "zh_hant", "pt"]) {
        const description = mapError(run.err, lng).envelope.description;
        expect(description, lng).not.toMatch(/sql_refusals|\{\{/);
        expect(description, lng).not.toBe(mapError(run.err, "en").envelope.description);
      }
    } else {
      expect(run.ok, run.text).toBe(true);
    }
  });

  it("reads a doubled quote the way the server does", async () => {
    const r = await runReadOnlyQuery(source(), "SELECT customer FROM orders WHERE customer = 'O''Brien'", opts);
    expect(r.rows).toEqual([["O'Brien"]]);
  });

  it("a set naming one of the server's own databases is not verified, and not queried", async () => {
    const verified = await sets.verifyDatabaseInput(alice.actor, { ...SUPER, database: "mysql", ddl: "CREATE TABLE user (User char(128))" });
    expect(verified).toMatchObject({ ok: false, failure: { reason: "system_database", params: { database: "mysql" } } });
    const run = await runReadOnlyQuery({ ...SUPER, database: "mysql", tables: ["user"] }, "SELECT * FROM user", opts).then(
      () => null,
      (e) => e,
    );
    expect(run?.data).toMatchObject({ reason: "system_database" });
    expect(mapError(run, "en").envelope.description).toBe("This query was refused: the server's own database mysql cannot be read");
  });
});

describe("the runner's session", () => {
  it("fixes sql_mode and sets the server's own time limit, whatever the session had", async () => {
    const conn = await openConnection({ ...SUPER, database: DB });
    try {
      const q = (sql: string) => new Promise<any[]>((resolve, reject) => conn.query(sql, (err, rows) => (err ? reject(err) : resolve(rows as any[]))));
      await q("SET SESSION sql_mode = 'ANSI_QUOTES,NO_BACKSLASH_ESCAPES,PIPES_AS_CONCAT', SESSION max_statement_time = 0");
      await limitSession(conn, 2500);
      const [row] = await q("SELECT @@SESSION.sql_mode AS mode, @@SESSION.max_statement_time AS t, \"quoted\" AS s, 'a\\tb' AS e");
      expect(row).toMatchObject({ mode: SESSION_SQL_MODE, s: "quoted", e: "a\tb" });
      expect(Number(row.t)).toBe(2.5);
    } finally {
      conn.destroy();
    }
  });

  it("a query the parser could be fooled by ends at the server's time limit, not the client's", async () => {
    const started = Date.now();
    const err = await executeReadOnly(source(), "SELECT SLEEP(20)", { rowLimit: 10, timeoutMs: 800 }).then(
      () => null,
      (e) => e,
    );
    expect(mapError(err, "en").code).toBe("sql_timeout");
    // 1969: MariaDB's "max_statement_time exceeded"; the client would have hung up with its own code.
    expect(err.cause).toMatchObject({ errno: 1969 });
    expect(Date.now() - started).toBeLessThan(2500);
  });
});

describe("the reported attack through the product", () => {
  const ATTACK = () => `SELECT id FROM orders WHERE id = 1 --0 UNION SELECT LOAD_FILE(0x${hex(sentinelFile)})`;
  const UNDECLARED = "SELECT customer FROM orders WHERE id = 1 --0 UNION SELECT v FROM secrets";
  let setId: string;

  beforeAll(async () => {
    // The set connects with every privilege: the grants would stop nothing, only the guard can.
    setId = (await sets.createDatabaseSet(alice.actor, { name: "sentinels", introduction: "", ...SUPER, database: DB, ddl: DDL })).id;
  });

  it("POST /api/v1/training/database/mysql/req/result refuses it in the user's language, and nothing leaks", async () => {
    const PATH = "/api/v1/training/database/mysql/req/result";
    for (const sql of [ATTACK(), UNDECLARED]) {
      const r = await sendSse(h.api.base, alice, { training_set_id: setId, sql }, { path: PATH });
      expect(names(r)).toEqual(["error"]);
      expect(dataOf(r, "error")[0]).toMatchObject({
        status: 420501,
        description: expect.stringMatching(/^This query was refused: comments \(--, #, \/\* … \*\/\) are not allowed/),
      });
      expect(leakedToken(JSON.stringify(r.events))).toBeNull();
    }
    alice.browser.cookies.set("lang", "zh_hans");
    try {
      const r = await sendSse(h.api.base, alice, { training_set_id: setId, sql: ATTACK() }, { path: PATH });
      expect(dataOf(r, "error")[0].description).toMatch(/^该查询被拒绝：不允许使用注释/);
    } finally {
      alice.browser.cookies.set("lang", "en");
    }
    // The same endpoint still answers an honest query.
    const ok = await sendSse(h.api.base, alice, { training_set_id: setId, sql: "SELECT customer FROM orders WHERE id = 1" }, { path: PATH });
    expect(names(ok)).toEqual(["function", "message", "close"]);
  });

  it("the chat's sql_generate_and_data_query tool refuses it; neither the model nor the stream sees a sentinel", async () => {
    const { agentId, key } = await makeAgent(h, alice, { config: { training_set_ids: [setId] } });
    for (const sql of [ATTACK(), UNDECLARED]) {
      const r = await sendSse(h.api.base, alice, { agent_id: agentId, content: `[[tool:sql_generate_and_data_query ${JSON.stringify({ sql })}]]` });
      expect(names(r).at(-1)).toBe("close");
      expect(dataOf(r, "function")[0].params.error).toMatch(/^This query was refused: comments/);
      expect(leakedToken(JSON.stringify(r.events))).toBeNull();
    }
    const toModel = h.fake.receivedFor(key).map((req: { body: unknown }) => JSON.stringify(req.body));
    expect(toModel.length).toBeGreaterThan(0);
    for (const body of toModel) expect(leakedToken(body)).toBeNull();
    expect(toModel.at(-1)).toMatch(/The query failed: This query was refused: comments/);
  });
});
