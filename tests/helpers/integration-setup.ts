import { inject } from "vitest";

// Every module that reads settings sees the run's database before it is imported.
process.env.DATABASE_URL = inject("databaseUrl");
if (inject("embeddedDb")) process.env.ZELIN_EMBEDDED_DB = "1";
process.env.LOG_LEVEL ??= "warn";
// Gateways in tests never reach WeChat's servers: personal-WeChat bots run on the mock puppet.
process.env.WECHATY_PUPPET ??= "wechaty-puppet-mock";
process.env.APP_SECRET ??= "integration-tests-app-secret-0123456789abcdef";

import { afterAll } from "vitest";

// Close this file's pools before the run's database goes away, so teardown is quiet.
afterAll(async () => {
  const { getDb } = await import("../../server/db/client");
  const { dropSingleton } = await import("../../server/lib/singleton");
  await getDb().$disconnect();
  dropSingleton("prisma");
});
