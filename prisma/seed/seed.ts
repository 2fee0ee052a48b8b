// Demo data for a fresh install. Idempotent: it runs at every start and only fills what is missing.
// A production configuration gets only what the platform needs to work (categories, the offline
// channel): the demo account's password is printed in the README, and the demo market (demo
// developers, buyers and their activity) would stand in for its users' own. The ranking lists are rebuilt at every start, so the
// market's home shows them before the worker's first scheduled rebuild.
import { getDb } from "../../server/db/client";
import { hashPassword } from "../../server/auth/password";
import { DEMO_ACCOUNT, DEMO_CATEGORIES } from "./demo-data";
import { seedDemoKnowledge, seedOfflineChannel } from "./demo-knowledge";
import { seedDemoApps } from "./demo-apps";
import { grantExperienceBonus } from "../../server/money/editions/experience-bonus";
import { seedDemoMarket } from "./demo-market";
import { getEnv, isProductionConfiguration } from "../../server/env";
import { rebuildRankings } from "../../server/market/ranking.service";
import { DEFAULT_LANGUAGE } from "../../app/i18n/config";

export async function seedDemoData() {
  const db = getDb();
  for (const c of DEMO_CATEGORIES) {
    await db.appCategory.upsert({ where: { slug: c.slug }, create: c, update: {} });
  }
  await seedOfflineChannel(db);
  if (!isProductionConfiguration(getEnv())) await seedDemoContent(db);
  await rebuildRankings();
}

/** The demo account with its knowledge and apps, and the demo market around it. */
async function seedDemoContent(db: ReturnType<typeof getDb>) {
  if (!(await db.account.findUnique({ where: { account: DEMO_ACCOUNT.account }, select: { id: true } }))) {
    const phoneFree = !(await db.account.findUnique({ where: { phone: DEMO_ACCOUNT.phone }, select: { id: true } }));
    await db.account.create({
      data: {
        account: DEMO_ACCOUNT.account,
        nickname: DEMO_ACCOUNT.nickname,
        phone: phoneFree ? DEMO_ACCOUNT.phone : null,
        passwordHash: await hashPassword(DEMO_ACCOUNT.password),
        passwordChangedAt: new Date(),
        roles: ["individual_developer"],
        edition: DEMO_ACCOUNT.edition,
        editionExpiresAt: new Date(Date.now() + 365 * 86_400_000),
      },
    });
  }
  const demo = await db.account.findUnique({ where: { account: DEMO_ACCOUNT.account }, select: { id: true } });
  // The demo account has the experience bonus every account gets (once: the key replays after).
  if (demo) await grantExperienceBonus(demo.id);
  if (demo) await seedDemoKnowledge(db, demo.id);
  if (demo) await seedDemoApps(db, demo.id);
  // The install's language picks the text of records that hold one language (agents, carousel).
  await seedDemoMarket(db, DEFAULT_LANGUAGE);
}
