// Database training sets in a real browser, against the test MariaDB (MYSQL_URL): create a
// set, verify it (a wrong password first, then the right one), save it, see it listed as done, and
// run a query whose rows come back as a table. With SCREENSHOT_DIR set, both pages are saved at
// desktop and phone width in en and zh_hans.
import crypto from "node:crypto";
import path from "node:path";
import mysql from "mysql2/promise";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext } from "../helpers/browser";
import { sql } from "../helpers/e2e-db";

const MYSQL_URL = new URL(process.env.MYSQL_URL ?? "mysql://root@127.0.0.1:3306");
const HOST = MYSQL_URL.hostname;
const PORT = Number(MYSQL_URL.port || 3306);
const suffix = crypto.randomBytes(4).toString("hex");
const DB = `zl_e2e_${suffix}`;
const USER = `zl_e2e_${suffix}`;
const PASSWORD = `E2e-${suffix}`;
const DDL =
  "CREATE TABLE orders (\n  id INT PRIMARY KEY,\n  customer VARCHAR(40) NOT NULL,\n  amount DECIMAL(10,2)\n);\nCREATE TABLE customers (\n  name VARCHAR(40) PRIMARY KEY,\n  city VARCHAR(40)\n);";

let browser: Browser;
let admin: mysql.Connection;
const baseURL = inject("webUrl");
const SHOTS = process.env.SCREENSHOT_DIR;

async function makeSignedIn(opts: { lang?: string; phone?: boolean } = {}): Promise<BrowserContext & { accountId: string }> {
  const id = `e2e${crypto.randomBytes(10).toString("hex")}`;
  await sql(
    `INSERT INTO account (id, account, nickname, roles, edition, edition_expires_at, updated_at) VALUES ($1, $2, $2, '{}'::"Role"[], 'flagship'::"Edition", now() + interval '30 days', now())`,
    [id, `db${crypto.randomBytes(5).toString("hex")}`],
  );
  const token = crypto.randomBytes(32).toString("base64url");
  await sql("INSERT INTO session (id, account_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [
    crypto.createHash("sha256").update(token).digest("hex"),
    id,
  ]);
  const context = await newContext(browser, { baseURL, lang: opts.lang ?? "en", phone: opts.phone });
  await context.addCookies([{ name: "zl_session", value: token, url: baseURL }]);
  return Object.assign(context, { accountId: id });
}

async function open(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector("html[data-hydrated]");
}

async function fillForm(page: Page, password: string) {
  await page.getByTestId("db-name").fill("订单数据库");
  await page.getByTestId("db-introduction").fill("Orders and customers");
  await page.getByTestId("db-host").fill(HOST);
  await page.getByTestId("db-port").fill(String(PORT));
  await page.getByTestId("db-username").fill(USER);
  await page.getByTestId("db-password").fill(password);
  await page.getByTestId("db-database").fill(DB);
  await page.getByTestId("db-ddl").fill(DDL);
}

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await mysql.createConnection({
    host: HOST,
    port: PORT,
    user: decodeURIComponent(MYSQL_URL.username || "root"),
    password: decodeURIComponent(MYSQL_URL.password),
    multipleStatements: true,
  });
  await admin.query(`CREATE DATABASE \`${DB}\`; USE \`${DB}\`; ${DDL}`);
  await admin.query(
    "INSERT INTO orders VALUES (1, 'Ada', 10.50), (2, 'Bo', 20.00), (3, 'Cy', 30.25); INSERT INTO customers VALUES ('Ada', '上海'), ('Bo', 'Lisboa'), ('Cy', '台北')",
  );
  for (const host of ["%", "localhost", "127.0.0.1"]) {
    await admin.query(`CREATE USER '${USER}'@'${host}' IDENTIFIED BY '${PASSWORD}'`);
    await admin.query(`GRANT SELECT ON \`${DB}\`.* TO '${USER}'@'${host}'`);
  }
});

afterAll(async () => {
  await browser?.close();
  if (!admin) return;
  for (const host of ["%", "localhost", "127.0.0.1"]) await admin.query(`DROP USER IF EXISTS '${USER}'@'${host}'`);
  await admin.query(`DROP DATABASE IF EXISTS \`${DB}\``);
  await admin.end();
});

describe("database training sets", () => {
  it("creates a set, verifies it, sees it done, and runs a query", async () => {
    const context = await makeSignedIn();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    await open(page, "/database");
    await expect(page.getByTestId("db-empty").isVisible()).resolves.toBe(true);
    await page.getByTestId("db-create").click();
    await page.waitForURL(/\/Createdatabases/);
    await page.waitForSelector("[data-testid=database-form]");

    // The counter follows the statements.
    await fillForm(page, "not-the-password");
    await expect.poll(() => page.getByTestId("db-ddl-count").textContent()).toBe(`${[...DDL].length} / 30,000 characters`);

    // A wrong password: verification says why, and saving keeps nothing.
    await page.getByTestId("db-verify").click();
    const notice = page.getByTestId("db-notice");
    await notice.waitFor();
    expect(await notice.getAttribute("data-kind")).toBe("error");
    expect(await notice.textContent()).toContain("Verification failed: the user name or password is wrong");
    await page.getByTestId("db-save").click();
    await expect.poll(() => notice.textContent()).toContain("Database verification failed: the user name or password is wrong");
    expect((await sql("SELECT count(*)::int AS n FROM training_set WHERE owner_account_id = $1", [context.accountId]))[0].n).toBe(0);

    // The right one: verified, then saved and listed as done.
    await page.getByTestId("db-password").fill(PASSWORD);
    await page.getByTestId("db-verify").click();
    await expect
      .poll(
        async () =>
          (await page
            .getByTestId("db-notice")
            .getAttribute("data-kind")
            .catch(() => null)) ?? "",
      )
      .toBe("success");
    expect(await page.getByTestId("db-notice").textContent()).toMatch(/Verified: connected to .*tables found: orders, customers/);
    await page.getByTestId("db-save").click();
    await page.waitForURL(/\/database\?id=/);
    const row = page.getByTestId("db-row").first();
    await row.waitFor();
    expect(await row.getByTestId("db-state").getAttribute("data-state")).toBe("done");
    expect(await row.textContent()).toContain(`${USER}@${HOST}:${PORT}/${DB}`);

    // A query: the SQL echoed, then the rows as a table.
    await page
      .getByTestId("db-query-sql")
      .fill("SELECT o.customer, c.city, o.amount FROM orders o JOIN customers c ON c.name = o.customer ORDER BY o.id LIMIT 2");
    await page.getByTestId("db-query-run").click();
    await page.getByTestId("db-query-rows").waitFor();
    expect(await page.getByTestId("db-query-rows").textContent()).toContain("2 rows");
    const table = page.getByTestId("db-query-result").locator("table");
    expect(await table.locator("th").allTextContents()).toEqual(["customer", "city", "amount"]);
    expect(await table.locator("tbody tr").first().locator("td").allTextContents()).toEqual(["Ada", "上海", "10.50"]);

    // A write is refused, with the reason.
    await page.getByTestId("db-query-sql").fill("DELETE FROM orders");
    await page.getByTestId("db-query-run").click();
    await page.getByTestId("db-query-error").waitFor();
    expect(await page.getByTestId("db-query-error").textContent()).toContain("This query was refused: only SELECT statements can run");
    expect(((await admin.query(`SELECT COUNT(*) AS n FROM \`${DB}\`.orders`)) as any)[0][0].n).toBe(3);

    // Verify again keeps it done.
    await page.getByTestId("db-reverify").first().click();
    await page.locator(".ant-message-success").waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});

if (SHOTS)
  describe("screenshots", () => {
    it("both pages at desktop and phone width", async () => {
      for (const lang of ["en", "zh_hans"]) {
        for (const phone of [false, true]) {
          const context = await makeSignedIn({ lang, phone });
          const page = await context.newPage();
          const size = phone ? "phone" : "desktop";
          await open(page, "/Createdatabases");
          await fillForm(page, PASSWORD);
          await page.getByTestId("db-verify").click();
          await page.getByTestId("db-notice").waitFor();
          await page.screenshot({ path: path.join(SHOTS!, `createdatabases-${lang}-${size}.png`), fullPage: true });
          await page.getByTestId("db-save").click();
          await page.waitForURL(/\/database\?id=/);
          await page.getByTestId("db-query-sql").fill("SELECT * FROM orders ORDER BY id");
          await page.getByTestId("db-query-run").click();
          await page.getByTestId("db-query-rows").waitFor();
          await page.screenshot({ path: path.join(SHOTS!, `database-${lang}-${size}.png`), fullPage: true });
          await context.close();
        }
      }
    });
  });
