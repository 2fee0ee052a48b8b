// The editions table: every limit and fee in one place. Pure data, so the pages
// that compare editions and the services that enforce them read the same numbers.
// Money is integer micro-Z (1 Z coin = 1 yuan = 1,000,000), as everywhere (server/money/money.constants.ts).

export const EDITION_KEYS = ["basic", "professional", "flagship", "enterprise", "education"] as const;
export type TEditionKey = (typeof EDITION_KEYS)[number];

export const MICRO = 1_000_000;

/** Training characters an account keeps free; storage beyond is charged daily (storage-charges.service.ts). */
export const FREE_TRAINING_CHARS = 1_000_000;
/** One database training set's table-creation statements at most, in characters. */
export const MAX_DATABASE_SET_CHARS = 30_000;
/** Advised size of one smart text file: more is accepted, with the advice shown. */
export const ADVISED_TRAINING_FILE_CHARS = 50_000;

/** null: unlimited. */
export type TEditionLimits = {
  agents: number | null;
  trainingSets: number | null;
  apps: number | null;
  /** 0: bots are not part of the edition. */
  bots: number | null;
  chatsPerDay: number;
};

export type TEditionFeatures = {
  distribution: boolean;
  privateKeyService: boolean;
  subAccounts: boolean;
  customLogo: boolean;
  customBackground: boolean;
  exclusiveSubdomain: boolean;
  allocateFunctions: boolean;
  subAccountMonitoring: boolean;
  multimediaLibrary: boolean;
};

export type TEdition = {
  key: TEditionKey;
  /** Edition fee and the prepaid top-up bought with it, in micro-Z. */
  feeMicro: number;
  prepaidMicro: number;
  limits: TEditionLimits;
  features: TEditionFeatures;
  /** Higher rank: more capable. Used to name the edition that would allow something. */
  rank: number;
};

const NONE: TEditionFeatures = {
  distribution: false,
  privateKeyService: false,
  subAccounts: false,
  customLogo: false,
  customBackground: false,
  exclusiveSubdomain: false,
  allocateFunctions: false,
  subAccountMonitoring: false,
  multimediaLibrary: false,
};
const UNLIMITED = { agents: null, trainingSets: null, apps: null, bots: null } as const;
const ORG = { subAccounts: true, customLogo: true, customBackground: true, exclusiveSubdomain: true, allocateFunctions: true, subAccountMonitoring: true };

export const EDITIONS: Record<TEditionKey, TEdition> = {
  basic: {
    key: "basic",
    rank: 0,
    feeMicro: 0,
    prepaidMicro: 10 * MICRO,
    limits: { agents: 1, trainingSets: 1, apps: 1, bots: 0, chatsPerDay: 20 },
    features: { ...NONE },
  },
  professional: {
    key: "professional",
    rank: 1,
    feeMicro: 199 * MICRO,
    prepaidMicro: 100 * MICRO,
    limits: { agents: 10, trainingSets: 10, apps: 10, bots: 10, chatsPerDay: 100 },
    features: { ...NONE, distribution: true, multimediaLibrary: true },
  },
  flagship: {
    key: "flagship",
    rank: 2,
    feeMicro: 299 * MICRO,
    prepaidMicro: 200 * MICRO,
    limits: { ...UNLIMITED, chatsPerDay: 200 },
    features: { ...NONE, distribution: true, multimediaLibrary: true, privateKeyService: true },
  },
  enterprise: {
    key: "enterprise",
    rank: 3,
    feeMicro: 599 * MICRO,
    prepaidMicro: 400 * MICRO,
    limits: { ...UNLIMITED, chatsPerDay: 200 },
    features: { ...NONE, ...ORG, distribution: true, multimediaLibrary: true, privateKeyService: true },
  },
  education: {
    key: "education",
    rank: 3,
    feeMicro: 599 * MICRO,
    prepaidMicro: 400 * MICRO,
    limits: { ...UNLIMITED, chatsPerDay: 200 },
    features: { ...NONE, ...ORG, distribution: true, multimediaLibrary: true },
  },
};

/** Membership terms an edition is bought for, in days. */
export const MEMBERSHIP_DAYS = [30, 365] as const;

/** The cheapest edition that has a feature, or that allows `needed` of a resource. */
export function editionAllowing(test: (e: TEdition) => boolean): TEditionKey | null {
  const candidates = EDITION_KEYS.map((k) => EDITIONS[k]).filter(test);
  candidates.sort((a, b) => a.rank - b.rank || a.feeMicro - b.feeMicro);
  return candidates[0]?.key ?? null;
}
