// The editions as the public pages show them, read from the one editions table.
import { EDITION_KEYS, EDITIONS, MEMBERSHIP_DAYS, MICRO, type TEditionKey } from "../../../server/accounts/editions";

export type { TEditionKey };

/** Amounts in yuan for display; null means unlimited. */
export type TEdition = {
  key: TEditionKey;
  fee: number;
  prepaid: number;
  agents: number | null;
  trainingSets: number | null;
  apps: number | null;
  bots: number | null;
  chatsPerDay: number;
  distribution: boolean;
  privateKey: boolean;
  subAccounts: boolean;
  branding: boolean;
  featured?: boolean;
};

export const EDITIONS_FOR_DISPLAY: readonly TEdition[] = EDITION_KEYS.map((key) => {
  const e = EDITIONS[key];
  return {
    key,
    fee: e.feeMicro / MICRO,
    prepaid: e.prepaidMicro / MICRO,
    ...e.limits,
    distribution: e.features.distribution,
    privateKey: e.features.privateKeyService,
    subAccounts: e.features.subAccounts,
    branding: e.features.customLogo,
    featured: key === "flagship",
  };
});

export { MEMBERSHIP_DAYS };
