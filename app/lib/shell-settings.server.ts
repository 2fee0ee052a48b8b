import { getEnv } from "../../server/env";
import { getLicenceStatus } from "../../server/platform/licence.service";

/** What the shell needs on every page, from settings; no database round trip. */
export function getShellSettings() {
  const env = getEnv();
  const licence = getLicenceStatus();
  return {
    market: env.MARKET,
    contactPhone: env.CONTACT_PHONE,
    ownHosts: env.OWN_HOSTS,
    buildVersion: process.env.ZELIN_BUILD ?? "dev",
    // The server already knows: render the overlay in the first paint instead of after a fetch.
    licence:
      licence.status === 200
        ? null
        : { status: licence.status, start_time: licence.start_time, end_time: licence.end_time, contact_phone: licence.contact_phone },
  };
}
