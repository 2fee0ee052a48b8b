// Page elements each market shows: a feature-flag table per market, three markets.
// Shared by server and browser; pages read it only through useFlag() / isFlagOn().
export const MARKET_FLAGS = {
  zelinai: {
    competition: true,
    business_school: true,
    partner_programme: true,
    wechat_login: true,
    sms_login: true,
    payments: true,
    digital_human: true,
    icp_filing: true,
    agent_market: true,
    task_centre: true,
  },
  zelinai_hk: {
    competition: true,
    business_school: true,
    partner_programme: true,
    wechat_login: false,
    sms_login: true,
    payments: true,
    digital_human: true,
    icp_filing: false,
    agent_market: true,
    task_centre: false,
  },
  zelinai_global: {
    competition: false,
    business_school: false,
    partner_programme: true,
    wechat_login: false,
    sms_login: false,
    payments: true,
    digital_human: true,
    icp_filing: false,
    agent_market: true,
    task_centre: false,
  },
} as const satisfies Record<string, Record<string, boolean>>;

export type TMarket = keyof typeof MARKET_FLAGS;
export type TFlag = keyof (typeof MARKET_FLAGS)["zelinai"];
export const DEFAULT_MARKET: TMarket = "zelinai";

export function isFlagOn(market: string, flag: TFlag): boolean {
  const table = MARKET_FLAGS[(market in MARKET_FLAGS ? market : DEFAULT_MARKET) as TMarket];
  return table[flag];
}
