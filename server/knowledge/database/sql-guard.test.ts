import { describe, expect, it } from "vitest";
import { ALLOWED_FUNCTIONS } from "./sql-functions";
import { assertCustomerDatabase, assertReadOnlySelect, parseCreateTables } from "./sql-guard";
import { lexSql, SqlLexRefusal } from "./sql-lexer";

const scope = { tables: ["orders", "customers"], database: "shop" };
const refusalOf = (sql: string, within = scope) => {
  try {
    assertReadOnlySelect(sql, within);
    return null;
  } catch (err) {
    return (err as { data: { reason: string; params: Record<string, unknown> } }).data;
  }
};
const reasonOf = (sql: string, within = scope) => refusalOf(sql, within)?.reason ?? null;

describe("assertReadOnlySelect", () => {
  it.each([
    "SELECT * FROM orders",
    "select o.id, c.name from orders o join customers c on c.name = o.customer where o.id in (select id from orders)",
    "SELECT * FROM shop.orders",
    "WITH big AS (SELECT * FROM orders WHERE amount > 10) SELECT COUNT(*) FROM big",
    "WITH a AS (SELECT id FROM orders) SELECT * FROM a UNION SELECT id FROM customers",
    "SELECT DATE_FORMAT(NOW(), '%Y') AS y, COUNT(*) FROM orders GROUP BY y",
    "SELECT * FROM orders;",
    "SELECT * FROM `shop`.`orders` WHERE customer = 'O''Brien' OR customer = \"a\"\"b\"",
    "SELECT customer FROM orders WHERE customer LIKE '%\\_%' OR customer = 'C:\\temp'",
    "SELECT '-- not a comment', '# nor this', '/*! nor this */', `odd -- name`, ';' FROM orders",
    "SELECT 客户, SUM(金额) FROM orders WHERE 备注 = '张三（北京）' GROUP BY 客户",
    "SELECT 1 - -1, 2 - (-1), x'41', 0x41, b'01', 0b01, 1.5e3, N'a', _utf8mb4'b' FROM orders",
    "WITH secrets AS (SELECT * FROM orders) SELECT * FROM secrets",
    "WITH a AS (SELECT id FROM orders), b AS (SELECT * FROM a) SELECT * FROM b",
    "WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT * FROM r",
    "SELECT id, IFNULL(amount, 0), CASE WHEN amount > 10 THEN 'big' END, CAST(amount AS CHAR), ROW_NUMBER() OVER (ORDER BY id), TRIM(BOTH 'x' FROM customer), EXTRACT(YEAR FROM created) FROM orders",
    "SELECT * FROM (orders o JOIN customers c ON c.id = o.id)",
    "SELECT * FROM orders WHERE id IN (SELECT id FROM customers) AND EXISTS (SELECT 1 FROM customers c WHERE c.id = orders.id)",
    "SELECT DATE_SUB(NOW(), INTERVAL 7 DAY), TIMESTAMPDIFF(DAY, created, NOW()), JSON_EXTRACT(meta, '$.a'), GROUP_CONCAT(DISTINCT customer SEPARATOR ', ') FROM orders",
  ])("lets through %s", (sql) => expect(reasonOf(sql)).toBeNull());

  it.each([
    ["INSERT INTO orders VALUES (1)", "not_select"],
    ["SELECT 1; SELECT 2", "one_statement"],
    ["SELECT * FROM orders INTO OUTFILE '/tmp/x'", "into"],
    ["SELECT @@hostname", "variables"],
    ["SELECT @x := 1", "variables"],
    ["SELECT sleep(1) FROM orders", "function"],
    ["SELECT * FROM other.orders", "table"],
    ["SELECT * FROM orders FOR UPDATE", "locking_read"],
    ["SELECT 1 /*! , 2 */", "executable_comment"],
    ["SELECT 1 /*M!100000 , 2 */", "executable_comment"],
    ["SELECT 1 FROM orders WHERE", "unparsable"],
    // A WITH name inside a subquery is out of scope outside it, where the name is a real table.
    ["SELECT * FROM (WITH secrets AS (SELECT 1 x) SELECT * FROM secrets) a, secrets", "table"],
    // The server reads `--0` as two minus signs, a parser as a comment hiding the rest.
    ["SELECT id FROM orders WHERE id = 1 --0 UNION SELECT LOAD_FILE(0x2f6574632f706173737764)", "comment"],
    ["SELECT id FROM orders WHERE id = 1 --\tx", "comment"],
    ["SELECT id FROM orders --", "comment"],
    ["SELECT 1--1", "comment"],
    ["SELECT id FROM orders # UNION SELECT 1", "comment"],
    ["SELECT id FROM orders /* plain */", "comment"],
    ["SELECT id /*+ MAX_EXECUTION_TIME(1) */ FROM orders", "executable_comment"],
    ["SELECT id /*m!50000 , 2 */ FROM orders", "executable_comment"],
    // Where a string ends would depend on NO_BACKSLASH_ESCAPES.
    ["SELECT '\\'' FROM orders", "escape"],
    ['SELECT "\\"" FROM orders', "escape"],
    ["SELECT 'a\\\\' FROM orders", "escape"],
    ["SELECT \\N FROM orders", "escape"],
    ["SELECT 'open FROM orders", "unterminated"],
    ["SELECT `open FROM orders", "unterminated"],
    ["SELECT * FROM `orders``x`", "ambiguous"],
    ["SELECT * FROM `ord\\ers`", "escape"],
    ["SELECT 1e1from orders", "ambiguous"],
    ["SELECT 0x1g FROM orders", "ambiguous"],
    ["SELECT * FROM shop.1secrets", "ambiguous"],
    ["SELECT orders.5 FROM orders", "ambiguous"],
    ["SELECT {fn now()} FROM orders", "ambiguous"],
    ["SELECT ? FROM orders", "ambiguous"],
    ["SELECT id FROM orders WHERE id = :id", "ambiguous"],
    ["SELECT\u0000 1 FROM orders", "character"],
    ["SELECT 'a\u0000' FROM orders", "character"],
    ["SELECT\u000b1 FROM orders", "character"],
    ["SELECT 1\u3000FROM orders", "character"],
    ["SELECT 1 FROM ｏrders", "character"],
    ["SELECT 1 FROM orders\u200b", "character"],
    ["SELECT 1 FROM `orders\u202e`", "character"],
    ["SELECT 1; DROP TABLE orders", "one_statement"],
    ["SELECT 1;;", "one_statement"],
    ["SELECT 1; \u3000", "one_statement"],
    ["SELECT 1 INTO @x", "variables"],
    ["SELECT * FROM orders INTO DUMPFILE '/tmp/x'", "into"],
    ["SELECT * FROM orders LOCK IN SHARE MODE", "locking_read"],
    ["HANDLER orders OPEN", "unparsable"],
    ["SET STATEMENT max_statement_time = 0 FOR SELECT 1", "unparsable"],
    ["SELECT id FROM orders PROCEDURE ANALYSE()", "unparsable"],
    ["LOAD DATA INFILE '/etc/passwd' INTO TABLE orders", "not_select"],
    ["SELECT * FROM information_schema.tables", "table"],
    ["SELECT (SELECT authentication_string FROM mysql.user LIMIT 1) FROM orders", "table"],
    ["SELECT * FROM orders UNION SELECT * FROM secrets", "table"],
    ["SELECT * FROM orders WHERE id IN (SELECT id FROM secrets)", "table"],
    ["SELECT * FROM orders o JOIN (customers c JOIN secrets s ON s.id = c.id) ON c.id = o.id", "table"],
    ["SELECT * FROM SHOP.orders", "table"],
    ["SELECT * FROM Orders", "table"],
    ["SELECT * FROM `a::b`", "table"],
    // A WITH definition does not see itself (without RECURSIVE) nor later ones: there the name is a real table.
    ["WITH secrets AS (SELECT * FROM secrets) SELECT * FROM secrets", "table"],
    ["WITH a AS (SELECT * FROM secrets), secrets AS (SELECT 1 AS x) SELECT * FROM a", "table"],
    // MariaDB matches WITH names without case, MySQL with: a near miss is a table.
    ["WITH x AS (SELECT 1) SELECT * FROM X", "table"],
  ])("refuses %s (%s)", (sql, reason) => expect(reasonOf(sql)).toBe(reason));

  it.each([
    "LOAD_FILE",
    "SLEEP",
    "BENCHMARK",
    "GET_LOCK",
    "USER",
    "DATABASE",
    "VERSION",
    "CONNECTION_ID",
    "EXTRACTVALUE",
    "UPDATEXML",
    "VALUES",
    "UUID",
    "NAME_CONST",
    "MASTER_POS_WAIT",
    "sys_exec",
  ])("refuses the function %s by name", (name) => expect(refusalOf(`SELECT ${name}(1) FROM orders`)).toEqual({ reason: "function", params: { name } }));

  it("names a quoted or qualified function as written", () => {
    expect(refusalOf("SELECT `sleep`(1) FROM orders")).toEqual({ reason: "function", params: { name: "sleep" } });
    expect(refusalOf("SELECT shop.total(1) FROM orders")).toEqual({ reason: "function", params: { name: "shop.total" } });
  });

  it("allows no function that reads files, waits, locks, reveals the server or changes state", () => {
    const dangerous = [
      "LOAD_FILE",
      "SLEEP",
      "BENCHMARK",
      "GET_LOCK",
      "RELEASE_LOCK",
      "IS_FREE_LOCK",
      "MASTER_POS_WAIT",
      "USER",
      "CURRENT_USER",
      "SYSTEM_USER",
      "SESSION_USER",
      "DATABASE",
      "SCHEMA",
      "VERSION",
      "CONNECTION_ID",
      "LAST_INSERT_ID",
      "ROW_COUNT",
      "FOUND_ROWS",
      "NEXTVAL",
      "SETVAL",
      "LASTVAL",
      "EXTRACTVALUE",
      "UPDATEXML",
      "DES_ENCRYPT",
      "ENCRYPT",
      "SYS_EXEC",
      "SYS_EVAL",
      "VALUES",
      "DEFAULT",
      "NAME_CONST",
    ];
    expect(dangerous.filter((f) => ALLOWED_FUNCTIONS.has(f))).toEqual([]);
  });

  it("never reads the server's own databases, even when the set names one", () => {
    for (const database of ["mysql", "information_schema", "INFORMATION_SCHEMA", "performance_schema", "sys", "ｍｙｓｑｌ", "Ínformation_schema"]) {
      expect(refusalOf("SELECT * FROM user", { tables: ["user"], database }), database).toEqual({ reason: "system_database", params: { database } });
      expect(() => assertCustomerDatabase(database), database).toThrow(
        expect.objectContaining({ code: "database_verification_failed", data: expect.objectContaining({ reason: "system_database" }) }),
      );
    }
    expect(() => assertCustomerDatabase("shop")).not.toThrow();
  });
});

describe("lexSql", () => {
  const kinds = (sql: string) => lexSql(sql).map((t) => `${t.kind}:${t.text}`);
  const lexRefusal = (sql: string) => {
    try {
      lexSql(sql);
      return null;
    } catch (err) {
      return err instanceof SqlLexRefusal ? { reason: err.reason, params: err.params } : err;
    }
  };

  it("reads strings with doubled quotes and harmless escapes, names in backticks, numbers and symbols", () => {
    expect(kinds("SELECT 'It''s', \"a\\tb\", `o#rd`, 0x41, 1.5e3, .5 FROM t;")).toEqual([
      "word:SELECT",
      "string:'It''s'",
      "symbol:,",
      'string:"a\\tb"',
      "symbol:,",
      "name:`o#rd`",
      "symbol:,",
      "number:0x41",
      "symbol:,",
      "number:1.5e3",
      "symbol:,",
      "number:.5",
      "word:FROM",
      "word:t",
    ]);
  });

  it("keeps comment markers inside strings and names as text", () => {
    expect(kinds("SELECT '--0', '#', '/*!', `-- x` FROM t").filter((t) => !t.startsWith("symbol"))).toEqual([
      "word:SELECT",
      "string:'--0'",
      "string:'#'",
      "string:'/*!'",
      "name:`-- x`",
      "word:FROM",
      "word:t",
    ]);
  });

  it.each([
    ["SELECT 1 --0", { reason: "comment", params: {} }],
    ["SELECT 1 -- ", { reason: "comment", params: {} }],
    ["SELECT 1 /*M!100000 2 */", { reason: "executable_comment", params: {} }],
    ["SELECT @@version", { reason: "variables", params: {} }],
    ["SELECT 'x\\'", { reason: "escape", params: {} }],
    ["SELECT 2abc", { reason: "ambiguous", params: { text: "2abc" } }],
    ["SELECT ｓｅｌｅｃｔ", { reason: "character", params: { char: "ｓ (U+FF53)" } }],
    ["SELECT\u0000", { reason: "character", params: { char: "U+0000" } }],
  ])("refuses %j", (sql, refusal) => expect(lexRefusal(sql)).toEqual(refusal));
});

describe("parseCreateTables", () => {
  it("names the tables of CREATE TABLE statements, as SHOW CREATE TABLE writes them", () => {
    const ddl =
      "CREATE TABLE `orders` (\n  `id` int(11) NOT NULL AUTO_INCREMENT,\n  `status` enum('a','b') DEFAULT 'a',\n  PRIMARY KEY (`id`),\n  KEY `k` (`status`)\n) ENGINE=InnoDB AUTO_INCREMENT=5 DEFAULT CHARSET=utf8mb4 COMMENT='订单';\nCREATE TABLE IF NOT EXISTS customers (name varchar(40) primary key);";
    expect(parseCreateTables(ddl)).toEqual(["orders", "customers"]);
  });

  it.each([
    ["CREATE TABLE a (id int); DROP TABLE a", "not_create_table"],
    ["CREATE VIEW v AS SELECT 1", "not_create_table"],
    ["CREATE TABLE (", "ddl_unparsable"],
  ])("refuses %s", (ddl, reason) => {
    expect(() => parseCreateTables(ddl)).toThrow(expect.objectContaining({ code: "database_verification_failed", data: expect.objectContaining({ reason }) }));
  });
});
