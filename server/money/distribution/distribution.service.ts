// Distribution for the signed-in account (the pages /distribution, /my_bonus, /my_redpacket and the
// invitation page): share links, invitees, dividends and gift credit. Everything is read for the
// actor's own id; another account's rows cannot be asked for. Other people's names are masked. The
// basic edition has no distribution (`features.distribution` is false): its links give way to an
// upgrade hint, while what it earned before stays visible.
import { AppError } from "../../errors/app-error";
import { CHINA_OFFSET_MS } from "../../lib/china-time";
import { EDITIONS, editionAllowing } from "../../accounts/editions";
import { effectiveEdition } from "../../accounts/entitlements.service";
import { getWallet } from "../ledger.service";
import { maskName } from "./distribution.format";
import * as repo from "./distribution.repository";
import { ZDividendFilter, type TDistributionOverview, type TDividend, type TDividendFilter, type TRedPacket } from "./distribution.schema";

type TActor = { id: string; edition: string; editionExpiresAt: Date | string | null };

const DAY_MS = 86_400_000;
const chinaMidnight = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - CHINA_OFFSET_MS);
const chinaDay = (at: Date) => new Date(at.getTime() + CHINA_OFFSET_MS).toISOString().slice(0, 10);

export async function getDistributionOverview(actor: TActor, now = new Date()): Promise<TDistributionOverview> {
  const enabled = EDITIONS[effectiveEdition(actor, now)].features.distribution;
  const today = chinaDay(now);
  const [apps, invitees, totals, byApp] = await Promise.all([
    enabled ? repo.listShareableApps(actor.id) : null,
    repo.listInvitees(actor.id),
    repo.sumDividends(actor.id, { today: chinaMidnight(today), month: chinaMidnight(`${today.slice(0, 7)}-01`) }),
    repo.sumDividendsByApp(actor.id),
  ]);
  const link = (own: boolean) => (a: { id: string; name: string; iconUrl: string; state: string; shareRatio: number }) => ({
    app_id: a.id,
    name: a.name,
    icon_url: a.iconUrl,
    own,
    state: a.state,
    share_percent: a.shareRatio,
  });
  return {
    touser: actor.id,
    enabled,
    upgrade_to: enabled ? null : editionAllowing((e) => e.features.distribution),
    links: apps ? [...apps.own.map(link(true)), ...apps.others.map(link(false))] : [],
    invitees: invitees.map((i) => ({ name: maskName(i.nickname || i.account), joined_at: i.createdAt.toISOString() })),
    earnings: {
      today: Number(totals.today),
      month: Number(totals.month),
      total: Number(totals.total),
      count: Number(totals.count),
      by_app: byApp.map((r) => ({ app_id: r.app_id, app_name: r.app_name ?? "", amount: Number(r.amount), count: Number(r.count) })),
    },
  };
}

/** /my_bonus: my dividends, newest first, between two China days (both included). */
export async function listMyDividends(actor: Pick<TActor, "id">, filter: TDividendFilter = {}): Promise<TDividend[]> {
  const f = ZDividendFilter.safeParse(filter);
  if (!f.success) throw new AppError("validation_failed");
  const from = f.data.from ? chinaMidnight(f.data.from) : null;
  const to = f.data.to ? new Date(chinaMidnight(f.data.to).getTime() + DAY_MS) : null;
  if ((from && Number.isNaN(from.getTime())) || (to && Number.isNaN(to.getTime()))) throw new AppError("validation_failed");
  const rows = await repo.listDividends(actor.id, { from, to, limit: 1000 });
  return rows.map((r) => ({
    id: r.entry_id,
    app_id: r.app_id,
    app_name: r.app_name ?? "",
    buyer: maskName(r.buyer_nickname),
    price: Number(r.price),
    share_percent: r.share_percent,
    dividend: Number(r.amount),
    refunded: r.refunded,
    created_at: r.created_at.toISOString(),
  }));
}

/** /my_redpacket: the gift credit I received and what of it is left (gift is spent first). */
export async function getMyRedPacket(actor: Pick<TActor, "id">): Promise<TRedPacket> {
  const [rows, wallet] = await Promise.all([repo.listGiftReceived(actor.id), getWallet(actor.id)]);
  const received = rows.map((r) => ({
    id: r.entry_id,
    source: r.key === `bonus:${actor.id}` ? ("experience_bonus" as const) : ("bonus" as const),
    amount: Number(r.amount),
    created_at: r.created_at.toISOString(),
  }));
  return { received, total_received: received.reduce((s, r) => s + r.amount, 0), left: wallet.gift };
}
