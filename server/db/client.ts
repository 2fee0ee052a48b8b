// One Prisma client per process, on node-postgres. The embedded default reaches PGlite through the
// same driver (server/db/embedded-host.ts), so there is one code path for both.
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client";
import { singleton } from "../lib/singleton";

export type TDb = PrismaClient;
/** A transaction client, as passed to repository methods. */
export type TTx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
export type TDbOrTx = TDb | TTx;

export function getDb(): PrismaClient {
  return singleton("prisma", () => {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: start Zelin with `npm start`, which provides the embedded database.");
    const embedded = process.env.ZELIN_EMBEDDED_DB === "1";
    const adapter = new PrismaPg({ connectionString: url, max: embedded ? 4 : 10 });
    return new PrismaClient({ adapter });
  });
}
