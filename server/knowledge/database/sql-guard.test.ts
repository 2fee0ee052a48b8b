import { describe, expect, it } from "vitest";
import { assertReadOnlySelect, parseCreateTables } from "./sql-guard";

const scope = { tables: ["orders", "customers"], database: "shop" };
const reasonOf = (sql: string) => {
  try {
    assertReadOnlySelect(sql, scope);
    return null;
  } catch (err) {
    return (err as { data: { reason: string } }).data.reason;
  }
};

describe("assertReadOnlySelect", () => {
  it.each([
    "SELECT * FROM orders",
    "select o.id, c.name from orders o join customers c on c.name = o.customer where o.id in (select id from orders)",
    "SELECT * FROM shop.orders",
    "WITH big AS (SELECT * FROM orders WHERE amount > 10) SELECT COUNT(*) FROM big",
    "WITH a AS (SELECT id FROM orders) SELECT * FROM a UNION SELECT id FROM customers",
    "SELECT DATE_FORMAT(NOW(), '%Y') AS y, COUNT(*) FROM orders GROUP BY y",
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
  ])("refuses %s (%s)", (sql, reason) => expect(reasonOf(sql)).toBe(reason));
});

describe("parseCreateTables", () => {
  it("names the tables of CREATE TABLE statements, as SHOW CREATE TABLE writes them", () => {
    const ddl = "CREATE TABLE `orders` (\n  `id` int(11) NOT NULL AUTO_INCREMENT,\n  `status` enum('a','b') DEFAULT 'a',\n  PRIMARY KEY (`id`),\n  KEY `k` (`status`)\n) ENGINE=InnoDB AUTO_INCREMENT=5 DEFAULT CHARSET=utf8mb4 COMMENT='订单';\nCREATE TABLE IF NOT EXISTS customers (name varchar(40) primary key);";
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
