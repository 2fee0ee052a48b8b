// The five editions as SPEC 6 and 9 state them, for the public pages that compare them.
// When the billing constants module exists, read fees and limits from there instead.

export type TEditionKey = "basic" | "professional" | "flagship" | "enterprise" | "education";

/** null means unlimited. */
export type TEdition = {
  key: TEditionKey;
  fee: number;
  prepaid: number;
  agents: number | null;
  trainingSets: number | null;
  apps: number | null;
  /** 0: bots not available in this edition. */
  bots: number | null;
  chatsPerDay: number;
  distribution: boolean;
  privateKey: boolean;
  subAccounts: boolean;
  branding: boolean;
  featured?: boolean;
};

export const EDITIONS: readonly TEdition[] = [
  { key: "basic", fee: 0, prepaid: 10, agents: 1, trainingSets: 1, apps: 1, bots: 0, chatsPerDay: 20, distribution: false, privateKey: false, subAccounts: false, branding: false },
  { key: "professional", fee: 199, prepaid: 100, agents: 10, trainingSets: 10, apps: 10, bots: 10, chatsPerDay: 100, distribution: true, privateKey: false, subAccounts: false, branding: false },
  { key: "flagship", fee: 299, prepaid: 200, agents: null, trainingSets: null, apps: null, bots: null, chatsPerDay: 200, distribution: true, privateKey: true, subAccounts: false, branding: false, featured: true },
  { key: "enterprise", fee: 599, prepaid: 400, agents: null, trainingSets: null, apps: null, bots: null, chatsPerDay: 200, distribution: true, privateKey: true, subAccounts: true, branding: true },
  { key: "education", fee: 599, prepaid: 400, agents: null, trainingSets: null, apps: null, bots: null, chatsPerDay: 200, distribution: true, privateKey: false, subAccounts: true, branding: true },
];

/** Membership terms an edition can be bought for (SPEC 9). */
export const MEMBERSHIP_DAYS = [30, 365] as const;
