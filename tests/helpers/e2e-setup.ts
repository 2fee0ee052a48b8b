// Each end-to-end test file reaches the database its platform runs on, as the web processes do:
// on the embedded PGlite (one session shared by every connection) server code must know it, or its
// direct pool's named statements would meet each other in that one session (server/db/direct-pool.ts).
import { inject } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");
if (inject("embeddedDb")) process.env.ZELIN_EMBEDDED_DB = "1";
