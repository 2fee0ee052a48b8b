// The app review policy (APP_REVIEW_POLICY): under "listing" an app waiting for review already
// works through its own link — the H5 page, a chat turn, its plans, the share panel — while the
// market listing waits; under "review_first" nobody but its owner opens it until approved. Either
// way, off-shelf and removed apps stay closed, and an app resubmitted after a removal stays closed
// until an administrator approves it again. The default follows the configuration.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { lookupH5App } from "../../server/apps/h5-view.service";
import { getShareTarget } from "../../server/apps/app-share.service";
import * as apps from "../../server/apps/apps.service";
import { getDb } from "../../server/db/client";
import { appReviewPolicy } from "../../server/env";
import { ERROR_CODES } from "../../server/errors/codes";
import { mapError } from "../../server/errors/map-error";
import { buyAppPlan, getOffer } from "../../server/money/purchases/purchases.service";
import { listAppCentre } from "../../server/market/catalog.service";
import { Browser } from "../helpers/api-client";
import { createTestApp, makeAppOwner } from "../helpers/apps";
import { dataOf, names, sendSse, useChatHarness, type TUser } from "../helpers/chat-runtime";
import { fundAccount } from "../helpers/money";
import { withReviewPolicy } from "../helpers/review-policy";

const h = useChatHarness();
const Z = 1_000_000;
let ip = 0;

function makeVisitor(): TUser {
  const browser = new Browser(h.api.base, `10.77.${Math.floor(++ip / 250)}.${ip % 250}`);
  browser.cookies.set("zl_visitor", crypto.randomBytes(16).toString("hex"));
  browser.cookies.set("lang", "en");
  return { id: "", browser, actor: { id: "", roles: [], enterpriseId: null } };
}

const send = (user: TUser, appId: string) =>
  sendSse(h.api.base, user, { app_id: appId, content: "What can you do?" }, { path: "/api/v2/app/send_message/sse" });
const errorStatus = (r: Awaited<ReturnType<typeof send>>) => (dataOf(r, "error")[0] as { status: number } | undefined)?.status;
const rowsOf = async (appId: string) => ({
  dialogues: await getDb().dialogue.count({ where: { appId } }),
  uses: await getDb().appUse.count({ where: { appId } }),
});
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e) => mapError(e, "en").code,
  );
const PLAN = { kind: "count" as const, quantity: 10, price_micro: 2 * Z, daily_limit: 5 };

/** An H5 app with one paid plan, waiting for review (as every new app does), and a funded buyer. */
async function waitingApp() {
  const { appId, owner } = await createTestApp({ state: "under_review", input: { plans: [PLAN] } });
  const planId = (await getDb().appPlan.findFirstOrThrow({ where: { appId }, select: { id: true } })).id;
  const buyer = await makeAppOwner({ edition: "basic", funded: false });
  await fundAccount(buyer.id, 10 * Z);
  return { appId, owner, planId, buyer };
}

async function makeAdmin() {
  return makeAppOwner({ roles: ["platform_admin"] });
}

describe("the default policy", () => {
  it("is the setting when given, else listing except on a production configuration", () => {
    expect(appReviewPolicy({ NODE_ENV: "test", DATABASE_URL: "postgresql://x/y", ZELIN_EMBEDDED_DB: false, APP_REVIEW_POLICY: undefined })).toBe("listing");
    expect(appReviewPolicy({ NODE_ENV: "production", DATABASE_URL: "postgresql://x/y", ZELIN_EMBEDDED_DB: false, APP_REVIEW_POLICY: "listing" })).toBe(
      "listing",
    );
    expect(appReviewPolicy({ NODE_ENV: "production", DATABASE_URL: "postgresql://x/y", ZELIN_EMBEDDED_DB: false, APP_REVIEW_POLICY: undefined })).toBe(
      "review_first",
    );
    expect(appReviewPolicy({ NODE_ENV: "production", DATABASE_URL: undefined, ZELIN_EMBEDDED_DB: true, APP_REVIEW_POLICY: undefined })).toBe("listing");
  });
});

describe('policy "listing": review gates only the market listing', () => {
  it("opens an app under review by its link: H5 page, chat turn, share panel, plan sheet and purchase", async () => {
    await withReviewPolicy("listing", async () => {
      const { appId, owner, planId, buyer } = await waitingApp();
      const page = await lookupH5App(appId, null);
      expect(page).toMatchObject({ ok: true, app: { id: appId, isOwner: false } });

      const visitor = makeVisitor();
      const r = await send(visitor, appId);
      expect(names(r)).toContain("close");
      expect(await rowsOf(appId)).toEqual({ dialogues: 1, uses: 1 });

      expect(await getShareTarget(buyer, appId)).toMatchObject({ id: appId, is_owner: false });
      expect((await getOffer(buyer, { app_id: appId })).plans).toHaveLength(1);
      const bought = await buyAppPlan(buyer, { app_id: appId, plan_id: planId, request_id: crypto.randomUUID() });
      expect(bought.purchase).toMatchObject({ app_id: appId, kind: "count", uses_total: 10 });

      // The owner's page says so; the market does not list it until approved.
      expect(await apps.getApp(owner, { id: appId })).toMatchObject({ state: "under_review", link_open: true });
      expect((await listAppCentre({ sort: "newest", limit: 50 })).items.map((a) => a.id)).not.toContain(appId);
    });
  });

  it("keeps an edited listed app open by its link while it is reviewed again", async () => {
    await withReviewPolicy("listing", async () => {
      const { appId, owner } = await createTestApp();
      const view = await apps.getApp(owner, { id: appId });
      await apps.updateApp(owner, { id: appId, app: { ...view.input, introduction: "改过的介绍 Edited." } });
      expect((await apps.getApp(owner, { id: appId })).state).toBe("under_review");
      expect(names(await send(makeVisitor(), appId))).toContain("close");
    });
  });

  it("keeps off-shelf and removed apps closed, and a resubmitted removed app closed until approved again", async () => {
    await withReviewPolicy("listing", async () => {
      for (const state of ["off_shelf", "removed"] as const) {
        const { appId } = await createTestApp({ state });
        expect(await lookupH5App(appId, null)).toMatchObject({ ok: false, reason: state });
        expect(errorStatus(await send(makeVisitor(), appId))).toBe(ERROR_CODES.not_found.status);
        expect(await rowsOf(appId)).toEqual({ dialogues: 0, uses: 0 });
      }

      const admin = await makeAdmin();
      const { appId, owner, planId, buyer } = await waitingApp();
      await apps.removeApp(admin, { id: appId, reason: "Misleading introduction" });
      await apps.submitApp(owner, { id: appId });
      expect(await apps.getApp(owner, { id: appId })).toMatchObject({ state: "under_review", link_open: false });
      expect(await lookupH5App(appId, null)).toMatchObject({ ok: false, reason: "under_review" });
      expect(errorStatus(await send(makeVisitor(), appId))).toBe(ERROR_CODES.not_found.status);
      expect(await codeOf(getShareTarget(buyer, appId))).toBe("not_found");
      expect(await codeOf(buyAppPlan(buyer, { app_id: appId, plan_id: planId, request_id: crypto.randomUUID() }))).toBe("not_for_sale");
      expect(await rowsOf(appId)).toEqual({ dialogues: 0, uses: 0 });
      expect(await getDb().purchase.count({ where: { appId } })).toBe(0);

      // Approved: open again, and a later edit keeps it open while reviewed.
      await apps.approveApp(admin, { id: appId });
      expect(await getDb().app.findUniqueOrThrow({ where: { id: appId }, select: { removedAt: true } })).toEqual({ removedAt: null });
      expect(names(await send(makeVisitor(), appId))).toContain("close");
    });
  });
});

describe('policy "review_first": nobody but the owner opens an app before approval', () => {
  it("refuses the H5 page, chat turn, share panel, plan sheet and purchase of an app under review, and writes nothing", async () => {
    await withReviewPolicy("review_first", async () => {
      const { appId, owner, planId, buyer } = await waitingApp();
      expect(await lookupH5App(appId, null)).toMatchObject({ ok: false, reason: "under_review" });
      expect(await lookupH5App(appId, { id: buyer.id, enterpriseId: null })).toMatchObject({ ok: false, reason: "under_review" });
      expect(errorStatus(await send(makeVisitor(), appId))).toBe(ERROR_CODES.not_found.status);
      expect(await codeOf(getShareTarget(buyer, appId))).toBe("not_found");
      expect(await codeOf(getOffer(buyer, { app_id: appId }))).toBe("not_found");
      expect(await codeOf(buyAppPlan(buyer, { app_id: appId, plan_id: planId, request_id: crypto.randomUUID() }))).toBe("not_for_sale");
      expect(await rowsOf(appId)).toEqual({ dialogues: 0, uses: 0 });
      expect(await getDb().purchase.count({ where: { appId } })).toBe(0);

      // Its owner opens it in any state, and is told the link waits for approval.
      expect(await lookupH5App(appId, { id: owner.id, enterpriseId: null })).toMatchObject({ ok: true, app: { isOwner: true } });
      expect(await apps.getApp(owner, { id: appId })).toMatchObject({ state: "under_review", link_open: false });

      // Approved: the link works for everyone.
      await apps.approveApp(await makeAdmin(), { id: appId });
      expect(await lookupH5App(appId, null)).toMatchObject({ ok: true });
      expect(names(await send(makeVisitor(), appId))).toContain("close");
    });
  });
});
