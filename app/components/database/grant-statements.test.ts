import { describe, expect, it } from "vitest";
import { grantStatements, tablesNamedIn } from "./grant-statements";

describe("tablesNamedIn", () => {
  it("names each created table once, without its database, backticks undone", () => {
    const ddl =
      "CREATE TABLE `orders` (id int);\ncreate table if not exists shop.customers (n int);\nCREATE TABLE `shop`.`a.b` (x int);\nCREATE TEMPORARY TABLE `odd``name` (x int);\nCREATE TABLE orders (id int);\nCREATE TABLE 订单 (id int);";
    expect(tablesNamedIn(ddl)).toEqual(["orders", "customers", "a.b", "odd`name", "订单"]);
  });
});

describe("grantStatements", () => {
  it("creates the user and grants SELECT on each declared table only", () => {
    expect(grantStatements({ username: "reader", database: "shop", tables: ["orders", "odd`name"] })).toBe(
      "CREATE USER 'reader'@'%' IDENTIFIED BY '…';\nGRANT SELECT ON `shop`.`orders` TO 'reader'@'%';\nGRANT SELECT ON `shop`.`odd``name` TO 'reader'@'%';",
    );
  });

  it("quotes what the form holds, and shows placeholders while it is empty", () => {
    expect(grantStatements({ username: "o'neil", database: "", tables: ["t"] })).toBe(
      "CREATE USER 'o''neil'@'%' IDENTIFIED BY '…';\nGRANT SELECT ON `your_database`.`t` TO 'o''neil'@'%';",
    );
    expect(grantStatements({ username: "", database: "shop", tables: [] })).toBe("CREATE USER 'zelin_reader'@'%' IDENTIFIED BY '…';");
  });
});
