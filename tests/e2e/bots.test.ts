// Bots in a real browser: a professional, funded owner creates a personal-WeChat bot on
// /create_bot, pays the first year of its package, sees the login QR code and "to be associated",
// scans it (the e2e gateway runs wechaty's mock puppet, whose QR is a loopback URL) and watches the
// page turn online by itself; sets a greeting; adds a daily scheduled message and sees it listed
// with its next send time, on a desktop and on a 375 px phone. Nothing is charged before the owner
// confirms the price, what it buys and the balance in a dialog; a bot that never came online is
// deleted within its first day for a full refund, the dialog saying so first. The refusals: a
// basic-edition account is told "bot limit reached, upgrade", one short of the price is offered a
// top-up, and nothing is created or paid. BOTS_SHOTS=<dir> keeps screenshots.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, newContext, PHONE, toast } from "../helpers/browser";
import { sql } from "../helpers/e2e-db";

type TLedger = typeof import("../../server/money/ledger.service");
let ledger: TLedger;
let browser: Browser;
const baseURL = inject("webUrl");
const modelKey = inject("chatModelKey");
const Z = 1_000_000;
const shotsDir = process.env.BOTS_SHOTS;

async function shot(page: Page, name: string) {
  if (!shotsDir) return;
  fs.mkdirSync(shotsDir, { recursive: true });
  // Dialogs fade in: let them settle before the picture.
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(shotsDir, `${name}.png`), fullPage: true });
}

/** A signed-in account of the given edition, with `funds` Z of coins and one agent with a live version. */
async function makeOwner(edition: "basic" | "professional", funds: number, opts: { phone375?: boolean; lang?: string } = {}) {
  const id = `e2ebot${crypto.randomBytes(9).toString("hex")}`;
  await sql(
    `INSERT INTO account (id, account, nickname, roles, edition, edition_expires_at, updated_at) VALUES ($1, $2, $2, '{individual_developer}'::"Role"[], $3::"Edition", CASE WHEN $3 = 'basic' THEN NULL ELSE now() + interval '1 year' END, now())`,
    [id, `bots_${crypto.randomBytes(4).toString("hex")}`, edition],
  );
  const token = crypto.randomBytes(32).toString("base64url");
  await sql("INSERT INTO session (id, account_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [
    crypto.createHash("sha256").update(token).digest("hex"),
    id,
  ]);
  if (funds > 0)
    await ledger.post({
      key: `e2e-bots-fund:${id}`,
      kind: "topup",
      accountId: id,
      legs: [
        { account: "payment_clearing", amount: -funds * Z },
        { account: ledger.wallet("spendable", id), amount: funds * Z },
      ],
    });
  const agentName = `客服助手${crypto.randomBytes(2).toString("hex")}`;
  const agentId = `e2eag${crypto.randomBytes(8).toString("hex")}`;
  await sql("INSERT INTO agent (id, owner_account_id, name, updated_at) VALUES ($1, $2, $3, now())", [agentId, id, agentName]);
  await sql(
    "INSERT INTO agent_version (id, agent_id, version, state, config, published_at, updated_at) VALUES ($1, $2, '1.0.0', 'published', $3::jsonb, now(), now())",
    [`e2eav${crypto.randomBytes(8).toString("hex")}`, agentId, JSON.stringify({ name: agentName, introduction: "Answers customers", model_key: modelKey })],
  );
  // The narrowest phone we design for (the /mobi pages): 375 px.
  const context = opts.phone375
    ? await browser.newContext({ ...PHONE, viewport: { width: 375, height: 812 }, baseURL })
    : await newContext(browser, { baseURL });
  await context.addCookies([
    { name: "zl_session", value: token, url: baseURL },
    { name: "lang", value: opts.lang ?? "en", url: baseURL },
  ]);
  return { id, agentName, context };
}

async function open(page: Page, url: string) {
  await page.goto(url);
  await page.waitForSelector("html[data-hydrated]");
}

const spendable = async (id: string) =>
  Number((await sql("SELECT balance_micro::text AS b FROM ledger_account WHERE id = $1", [`spendable:${id}`]))[0]?.b ?? 0);
const botsOf = async (id: string) =>
  (await sql(
    "SELECT b.id, b.channel::text AS channel, b.greeting, b.paid_until, b.login_qr, a.type::text AS app_type FROM bot b JOIN app a ON a.id = b.app_id WHERE b.owner_account_id = $1",
    [id],
  )) as Array<{ id: string; channel: string; greeting: string; paid_until: Date; login_qr: string | null; app_type: string }>;

/** Fills the create form for a personal-WeChat bot and submits it: the price dialog opens. */
async function submitWechatBot(page: Page, name: string) {
  await page.locator("[data-testid=bot-name-input]").fill(name);
  await page.locator("[data-testid=bot-platform-wechat]").click();
  await page.locator("[data-testid=bot-cred-wechat]").waitFor();
  await page.locator("[data-testid=bot-create-submit]").click();
  await page.locator("[data-testid=bot-buy-confirm] [data-testid=bot-buy-price]").waitFor();
}

/** Confirms the price dialog: only now is the package paid. */
async function confirmPurchase(page: Page) {
  await page.locator("[data-testid=bot-buy-ok]").click();
}

beforeAll(async () => {
  ledger = await import("../../server/money/ledger.service");
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("/create_bot", () => {
  let contexts: BrowserContext[] = [];
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    contexts = [];
  });

  it("creates a personal-WeChat bot, shows its QR code until it is scanned, sets a greeting and a daily scheduled message", async () => {
    const owner = await makeOwner("professional", 300);
    contexts.push(owner.context);
    const page = await owner.context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    // My bots: none yet, the package price and the edition's count.
    await open(page, "/create_bot");
    await page.locator("[data-testid=bots-empty]").waitFor();
    expect(await page.locator("[data-testid=bot-quote-used]").innerText()).toBe("0 of 10 bots used");
    await page.locator("[data-testid=bot-new]").click();
    await page.waitForURL(/\/create_bot\?new=1/);
    await page.locator("[data-testid=bot-form]").waitFor();
    expect(await page.locator("[data-testid=bot-quote]").innerText()).toContain("99.00 Z per bot for 365 days");
    // The only live agent is chosen already; the create button names the price.
    expect(await page.locator("[data-testid=bot-agent]").innerText()).toContain(owner.agentName);
    expect(await page.locator("[data-testid=bot-create-submit]").innerText()).toBe("Create and pay 99.00 Z");

    // The shared schema refuses an empty name in the browser, on the field, and nothing is sent.
    await page.locator("[data-testid=bot-create-submit]").click();
    await page.locator(".ant-form-item-explain-error", { hasText: "Enter the bot's name" }).waitFor();
    expect(await botsOf(owner.id)).toEqual([]);
    await shot(page, "bots-create-form");

    // The price, what it buys, the balance it comes from and the refund rule, before any charge.
    await submitWechatBot(page, "Front desk");
    const confirm = page.locator("[data-testid=bot-buy-confirm]");
    expect(await confirm.locator(".ant-modal-title").innerText()).toBe("Create Front desk and pay for its package?");
    expect(await confirm.locator("[data-testid=bot-buy-price]").innerText()).toBe("99.00 Z for 365 days");
    await expect.poll(() => confirm.locator("[data-testid=bot-buy-balance]").innerText()).toBe("Your balance, 300.00 Z");
    expect(await confirm.innerText()).toContain("201.00 Z left after paying");
    expect(await confirm.locator("[data-testid=bot-buy-refund]").innerText()).toContain("within 24 hours, before it first comes online");
    expect(await confirm.locator("[data-testid=bot-buy-short]").count()).toBe(0);
    await shot(page, "bots-buy-confirm");
    // Not now: nothing created, nothing paid.
    await page.locator("[data-testid=bot-buy-cancel]").click();
    await confirm.locator("[data-testid=bot-buy-price]").waitFor({ state: "detached" });
    expect(await botsOf(owner.id)).toEqual([]);
    expect(await spendable(owner.id)).toBe(300 * Z);
    await page.locator("[data-testid=bot-create-submit]").click();
    await confirm.locator("[data-testid=bot-buy-price]").waitFor();
    await confirmPurchase(page);
    await page.waitForURL(/\/create_bot\?bot_id=/);
    const botId = new URL(page.url()).searchParams.get("bot_id")!;
    expect(new URL(page.url()).searchParams.has("new")).toBe(false);
    await page.locator("[data-testid=bot-page]").waitFor();
    expect(await page.locator("[data-testid=bot-title]").innerText()).toBe("Front desk");
    // One bot, a BOT app behind it, a year of package paid from the wallet.
    const [row] = await botsOf(owner.id);
    expect(row).toMatchObject({ id: botId, channel: "wechat", app_type: "bot" });
    expect(new Date(row.paid_until).getTime()).toBeGreaterThan(Date.now() + 364 * 86_400_000);
    expect(await spendable(owner.id)).toBe(201 * Z);

    // The gateway takes the bot up and its mock puppet shows a login QR: the page polls until it is drawn.
    await page.locator("[data-testid=bot-status] [data-testid=bot-state][data-state=to_be_associated]").waitFor({ timeout: 30_000 });
    expect(await page.locator("[data-testid=bot-status] [data-testid=bot-state]").innerText()).toBe("To be associated");
    const qr = page.locator("[data-testid=bot-login-qr]");
    await qr.waitFor();
    const qrContent = await qr.getAttribute("data-content");
    expect(qrContent).toBe((await botsOf(owner.id))[0].login_qr);
    expect(await qr.getAttribute("src")).toMatch(/^data:image\/png;base64,/);
    expect(await page.locator("[data-testid=bot-state-detail]").first().innerText()).toBe("Scan the QR code with WeChat to log in");
    await shot(page, "bots-qr");

    // Scanning it (fetching the mock's QR URL is the phone's scan): the page turns online by itself.
    const scanned = await fetch(`${qrContent}&name=${encodeURIComponent("Front desk WeChat")}`);
    expect(scanned.ok).toBe(true);
    await page.locator("[data-testid=bot-status] [data-testid=bot-state][data-state=online]").waitFor({ timeout: 20_000 });
    expect(await page.locator("[data-testid=bot-login-name]").innerText()).toBe("Logged in as Front desk WeChat");
    expect(await page.locator("[data-testid=bot-login-qr]").count()).toBe(0);

    // The greeting.
    await page.locator("[data-testid=bot-settings-greeting]").fill("Welcome! Ask me about opening hours.");
    await page.locator("[data-testid=bot-settings-save]").click();
    await toast(page, "Saved");
    expect((await botsOf(owner.id))[0].greeting).toBe("Welcome! Ask me about opening hours.");

    // A daily scheduled message to a contact typed in by id, first sent tomorrow at 09:00 in the browser's clock.
    const when = await page.evaluate(() => {
      const d = new Date();
      d.setDate(d.getDate() + 1);
      d.setHours(9, 0, 0, 0);
      const pad = (n: number) => String(n).padStart(2, "0");
      return { input: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T09:00`, iso: d.toISOString(), shown: d.toLocaleString() };
    });
    await page.locator("[data-testid=schedule-add]").click();
    const modal = page.locator(".ant-modal", { hasText: "New scheduled message" });
    await modal.waitFor();
    await modal.locator("[data-testid=schedule-content]").fill("Good morning! We open at 10:00 today.");
    // No target yet: refused on the field.
    await modal.locator("[data-testid=schedule-save]").click();
    await modal.locator(".ant-form-item-explain-error", { hasText: "Choose 1 to 50 recipients" }).waitFor();
    await modal.locator("[data-testid=schedule-manual-id]").fill("wxid_e2e_friend");
    await modal.locator("[data-testid=schedule-manual-add]").click();
    await modal.locator("[data-testid=schedule-send-at]").fill(when.input);
    await modal.locator("[data-testid=schedule-loop] label", { hasText: "Daily" }).click();
    await shot(page, "bots-schedule-modal");
    await modal.locator("[data-testid=schedule-save]").click();
    await modal.waitFor({ state: "detached" });

    const listed = page.locator("[data-testid=schedule-row]");
    await listed.first().waitFor();
    expect(await listed.count()).toBe(1);
    expect(await listed.getAttribute("data-loop")).toBe("daily");
    expect(await listed.locator("[data-testid=schedule-content-text]").innerText()).toBe("Good morning! We open at 10:00 today.");
    expect(await listed.locator("[data-testid=schedule-loop-label]").innerText()).toBe("Daily at 09:00");
    expect(await listed.innerText()).toContain("Contact · wxid_e2e_friend");
    const next = listed.locator("[data-testid=schedule-next]");
    expect(await next.getAttribute("data-at")).toBe(when.iso);
    await expect.poll(() => next.innerText()).toBe(when.shown);
    const [schedule] = await sql("SELECT loop, next_run_at, targets FROM bot_schedule WHERE bot_id = $1", [botId]);
    expect(schedule.loop).toBe("daily");
    expect(new Date(schedule.next_run_at).toISOString()).toBe(when.iso);
    expect(schedule.targets).toEqual([{ kind: "contact", id: "wxid_e2e_friend", name: "" }]);
    await shot(page, "bots-page");

    // It all holds on a reload, and the list shows the bot online with its agent.
    await open(page, `/create_bot?bot_id=${botId}`);
    expect(await page.locator("[data-testid=bot-settings-greeting]").inputValue()).toBe("Welcome! Ask me about opening hours.");
    expect(await page.locator("[data-testid=schedule-row] [data-testid=schedule-next]").getAttribute("data-at")).toBe(when.iso);
    await page.locator("[data-testid=bot-back]").click();
    await page.waitForURL((u) => u.pathname === "/create_bot" && !u.searchParams.has("bot_id"));
    const card = page.locator(`[data-testid=bot-row][data-bot-id="${botId}"]`);
    await card.waitFor();
    expect(await card.locator("[data-testid=bot-state]").getAttribute("data-state")).toBe("online");
    expect(await card.innerText()).toContain(`Agent: ${owner.agentName}`);
    expect(await page.locator("[data-testid=bot-quote-used]").innerText()).toBe("1 of 10 bots used");
    expect(errors).toEqual([]);
  });

  it("works on a 375 px phone: the bot's page with its scheduled message, and the create form", async () => {
    const owner = await makeOwner("professional", 300, { phone375: true, lang: "zh_hans" });
    contexts.push(owner.context);
    const page = await owner.context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    await open(page, "/mobi/create_bot?new=1");
    await page.locator("[data-testid=bot-form]").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.locator("[data-testid=bot-name-input]").fill("手机上的机器人");
    await page.locator("[data-testid=bot-platform-wechat]").click();
    await page.locator("[data-testid=bot-create-submit]").click();
    await page.locator("[data-testid=bot-buy-confirm] [data-testid=bot-buy-price]").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot(page, "bots-buy-confirm-phone");
    await confirmPurchase(page);
    await page.waitForURL(/\/mobi\/create_bot\?bot_id=/);
    const botId = new URL(page.url()).searchParams.get("bot_id")!;
    await page.locator("[data-testid=bot-status] [data-testid=bot-state][data-state=to_be_associated]").waitFor({ timeout: 30_000 });
    expect(await page.locator("[data-testid=bot-status] [data-testid=bot-state]").innerText()).toBe("待关联");
    await page.locator("[data-testid=bot-login-qr]").waitFor();

    await page.locator("[data-testid=schedule-add]").click();
    const modal = page.locator(".ant-modal", { hasText: "新建定时消息" });
    await modal.locator("[data-testid=schedule-content]").fill("每小时提醒一次");
    await modal.locator("[data-testid=schedule-manual-kind]").click();
    await page.locator(".ant-select-item-option", { hasText: "群聊" }).click();
    await modal.locator("[data-testid=schedule-manual-id]").fill("room_e2e@chatroom");
    await modal.locator("[data-testid=schedule-manual-add]").click();
    await modal.locator("[data-testid=schedule-loop] label", { hasText: "每隔N小时" }).click();
    await modal.locator("input[data-testid=schedule-every-hours], [data-testid=schedule-every-hours] input").first().fill("6");
    await modal.locator("[data-testid=schedule-save]").click();
    await modal.waitFor({ state: "detached" });
    const row = page.locator("[data-testid=schedule-row]");
    await row.waitFor();
    expect(await row.locator("[data-testid=schedule-loop-label]").innerText()).toBe("每 6 小时");
    expect(await row.innerText()).toContain("群聊 · room_e2e@chatroom");
    expect(await row.locator("[data-testid=schedule-next]").getAttribute("data-at")).toBeTruthy();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const [schedule] = await sql("SELECT loop, every_hours, targets FROM bot_schedule WHERE bot_id = $1", [botId]);
    expect(schedule).toMatchObject({ loop: "hours", every_hours: 6, targets: [{ kind: "group", id: "room_e2e@chatroom", name: "" }] });
    await shot(page, "bots-page-phone");
    expect(errors).toEqual([]);
  });

  it('tells a basic-edition account "bot limit reached, upgrade" and creates nothing', async () => {
    const owner = await makeOwner("basic", 300);
    contexts.push(owner.context);
    const page = await owner.context.newPage();
    await open(page, "/create_bot?new=1");
    await page.locator("[data-testid=bot-form]").waitFor();
    // Said up front, from the edition's count...
    const upfront = page.locator("[data-testid=bot-limit-alert]");
    expect(await upfront.innerText()).toContain("Bot limit reached, please upgrade");
    expect(await upfront.innerText()).toContain("The basic edition does not include bots");
    // ...and by the server when the owner tries anyway: nothing is created and nothing is paid.
    await submitWechatBot(page, "Not allowed");
    await confirmPurchase(page);
    const refusal = page.locator("[data-testid=bot-refusal]");
    await refusal.waitFor();
    expect(await refusal.getAttribute("data-code")).toBe("bot_limit_reached");
    expect(await refusal.innerText()).toContain("Bot limit reached, please upgrade");
    expect(page.url()).toContain("/create_bot?new=1");
    expect(await botsOf(owner.id)).toEqual([]);
    expect((await sql("SELECT count(*)::int AS n FROM app WHERE owner_account_id = $1", [owner.id]))[0].n).toBe(0);
    expect(await spendable(owner.id)).toBe(300 * Z);
    await shot(page, "bots-limit-refusal");
    await refusal.locator("[data-testid=bot-refusal-upgrade]").click();
    await page.waitForURL(/\/upgrade/);
  });

  it("tells an owner short of the package price by how much, offers a top-up, and charges nothing", async () => {
    const owner = await makeOwner("professional", 50);
    contexts.push(owner.context);
    const page = await owner.context.newPage();
    await open(page, "/create_bot?new=1");
    await submitWechatBot(page, "Too dear");
    const confirm = page.locator("[data-testid=bot-buy-confirm]");
    const short = confirm.locator("[data-testid=bot-buy-short]");
    await short.waitFor();
    expect(await short.innerText()).toContain("Your balance is 49.00 Z short");
    expect(await confirm.locator("[data-testid=bot-buy-ok]").isDisabled()).toBe(true);
    await shot(page, "bots-buy-short");
    // The way out: the recharge dialog, for the missing amount.
    await short.locator("[data-testid=bot-buy-topup]").click();
    const recharge = page.locator("[data-testid=recharge-dialog]");
    await recharge.locator("[data-testid=recharge-amount]").waitFor();
    await expect.poll(() => recharge.locator("[data-testid=recharge-amount]").inputValue()).toBe("49");
    expect(await botsOf(owner.id)).toEqual([]);
    expect(await spendable(owner.id)).toBe(50 * Z);
  });

  it("deletes a bot that never came online within its first day for a full refund, saying so before the owner confirms", async () => {
    const owner = await makeOwner("professional", 300);
    contexts.push(owner.context);
    const page = await owner.context.newPage();
    await open(page, "/create_bot?new=1");
    await submitWechatBot(page, "Changed my mind");
    await confirmPurchase(page);
    await page.waitForURL(/\/create_bot\?bot_id=/);
    await page.locator("[data-testid=bot-page]").waitFor();
    expect(await spendable(owner.id)).toBe(201 * Z);
    expect(await page.locator("[data-testid=bot-refund-window]").innerText()).toContain("refunds 99.00 Z");

    await page.locator("[data-testid=bot-delete]").click();
    const said = page.locator("[data-testid=bot-delete-refund]");
    await said.waitFor();
    expect(await said.getAttribute("data-refund")).toBe("yes");
    expect(await said.innerText()).toContain("deleting it now refunds 99.00 Z to your balance");
    expect(await page.locator("[data-testid=bot-delete-ok]").innerText()).toBe("Delete and refund 99.00 Z");
    await shot(page, "bots-delete-refund");
    await page.locator("[data-testid=bot-delete-ok]").click();
    await page.waitForURL((u) => u.pathname === "/create_bot" && !u.searchParams.has("bot_id"));
    await toast(page, "Bot deleted; 99.00 Z refunded to your balance");
    expect(await spendable(owner.id)).toBe(300 * Z);
    expect(await sql("SELECT deleted_at IS NOT NULL AS gone FROM bot WHERE owner_account_id = $1", [owner.id])).toEqual([{ gone: true }]);
    expect(
      (await sql("SELECT count(*)::int AS n FROM ledger_transaction WHERE idempotency_key LIKE 'bot_refund:%' AND account_id = $1", [owner.id]))[0].n,
    ).toBe(1);
  });
});
