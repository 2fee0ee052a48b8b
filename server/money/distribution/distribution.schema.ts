// Distribution's inputs and views (/distribution, /my_bonus, /my_redpacket, /invitation), shared by
// the loaders and the pages. Amounts are micro-Z integers; the pages format them as yuan.
import { z } from "zod";

const ZDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "distribution:errors.bad_date");

/** /my_bonus filter: China-time days, both ends included. */
export const ZDividendFilter = z.object({ from: ZDay.optional(), to: ZDay.optional() });
export type TDividendFilter = z.infer<typeof ZDividendFilter>;

export type TShareLink = { app_id: string; name: string; icon_url: string; own: boolean; state: string; share_percent: number };
export type TInvitee = { name: string; joined_at: string };
export type TDividend = {
  id: string;
  app_id: string | null;
  app_name: string;
  buyer: string;
  price: number;
  share_percent: number | null;
  dividend: number;
  refunded: boolean;
  created_at: string;
};
export type TEarnings = {
  today: number;
  month: number;
  total: number;
  count: number;
  by_app: { app_id: string | null; app_name: string; amount: number; count: number }[];
};

export type TDistributionOverview = {
  touser: string;
  /** The sharer's edition includes distribution (`features.distribution`: basic does not). */
  enabled: boolean;
  /** The cheapest edition that would allow it, for the upgrade hint. */
  upgrade_to: string | null;
  links: TShareLink[];
  invitees: TInvitee[];
  earnings: TEarnings;
};

export type TGiftReceived = { id: string; source: "experience_bonus" | "bonus"; amount: number; created_at: string };
export type TRedPacket = { received: TGiftReceived[]; total_received: number; left: number };
