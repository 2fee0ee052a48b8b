import { inject } from "vitest";

// Every module that reads settings sees the run's database before it is imported.
process.env.DATABASE_URL = inject("databaseUrl");
if (inject("embeddedDb")) process.env.ZELIN_EMBEDDED_DB = "1";
process.env.LOG_LEVEL ??= "warn";
