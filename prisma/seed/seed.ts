// Demo data for a fresh install. Idempotent: it runs at every start and only fills what is missing.
import { getDb } from "../../server/db/client";
import { hashPassword } from "../../server/auth/password";
import { DEMO_ACCOUNT, DEMO_CATEGORIES } from "./demo-data";
import { seedDemoKnowledge, seedOfflineChannel } from "./demo-knowledge";
import { seedDemoApps } from "./demo-apps";
import { grantExperienceBonus } from "../../server/money/editions/experience-bonus";

export async function seedDemoData() {
  const db = getDb();
  for (const c of DEMO_CATEGORIES) {
    await db.appCategory.upsert({ where: { slug: c.slug }, create: c, update: {} });
  }
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
  await seedOfflineChannel(db);
  const demo = await db.account.findUnique({ where: { account: DEMO_ACCOUNT.account }, select: { id: true } });
  // The demo account has the experience bonus every account gets (once: the key replays after).
  if (demo) await grantExperienceBonus(demo.id);
  if (demo) await seedDemoKnowledge(db, demo.id);
  if (demo) await seedDemoApps(db, demo.id);
}
