// Integration and end-to-end tests use DATABASE_URL when it is set (CI: a fresh Postgres per run)
// and otherwise an embedded PGlite host started for the run, exactly as `npm start` does.
import { startEmbeddedHost, type EmbeddedHost } from "../../server/db/embedded-host";
import { applyMigrations } from "../../server/db/migrate";

export async function provideTestDatabase(): Promise<{ url: string; embedded: boolean; close: () => Promise<void> }> {
  let host: EmbeddedHost | undefined;
  let url = process.env.DATABASE_URL;
  if (!url) {
    host = await startEmbeddedHost();
    url = host.url;
  }
  await applyMigrations(url);
  return { url, embedded: Boolean(host), close: async () => host?.close() };
}
