// A user's income and consumption (the /income and /consumption pages): lines from their own wallet
// entries only, so nobody reads another account's money; filters by type, China-time dates and app;
// pages by a cursor; totals; an xlsx of the filtered lines.
import { AppError } from "../../errors/app-error";
import { CHINA_OFFSET_MS } from "../../lib/china-time";
import { getWallet } from "../ledger.service";
import * as repo from "./statements.repository";
import {
  BOOKS,
  type TBook,
  type TListStatementInput,
  type TLineType,
  type TStatementFilters,
  type TStatementLine,
  type TStatementPage,
  type TStatementTotals,
} from "./statements.schema";

const PAGE = 30;
const DAY_MS = 86_400_000;
/** An export holds at most this many lines; narrower filters give the rest. */
export const EXPORT_MAX_LINES = 50_000;

export function assertBook(book: string): TBook {
  if (!(book in BOOKS)) throw new AppError("not_found");
  return book as TBook;
}

/** Midnight in China of the day `day` ("YYYY-MM-DD"), as an instant. */
function chinaDayStart(day: string) {
  return new Date(Date.parse(`${day}T00:00:00Z`) - CHINA_OFFSET_MS);
}

function chinaToday(now: Date) {
  return new Date(now.getTime() + CHINA_OFFSET_MS).toISOString().slice(0, 10);
}

type TQuery = Omit<repo.TLineQuery, "before" | "limit">;

function toQuery(accountId: string, book: TBook, f: TStatementFilters): TQuery {
  const all: readonly string[] = BOOKS[book];
  // A type of the other book (or none known) selects nothing rather than everything.
  const types = f.type ? (all.includes(f.type) ? [f.type] : []) : all;
  return {
    accountId,
    types,
    from: f.from ? chinaDayStart(f.from) : null,
    to: f.to ? new Date(chinaDayStart(f.to).getTime() + DAY_MS) : null,
    appId: f.app_id ?? null,
  };
}

const str = (v: unknown) => (typeof v === "string" && v ? v : null);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : typeof v === "string" && /^\d+$/.test(v) ? Number(v) : null);

function toLine(r: repo.TLineRow): TStatementLine {
  const m = r.memo ?? {};
  return {
    id: r.id,
    type: r.type as TLineType,
    at: new Date(r.created_at).toISOString(),
    amount_micro: Number(r.amount),
    gift_micro: Number(r.gift),
    app_id: str(m.appId),
    app_name: str(m.appName),
    agent_name: str(m.agentName),
    edition: str(m.edition),
    days: num(m.days),
    chars: num(m.chars),
    what: str(m.what),
    withdrawal_state: (r.withdrawal_state as TStatementLine["withdrawal_state"]) ?? null,
  };
}

export async function listStatement(accountId: string, bookName: string, { filters, cursor }: TListStatementInput): Promise<TStatementPage> {
  const book = assertBook(bookName);
  const rows = await repo.listLines({ ...toQuery(accountId, book, filters ?? {}), before: cursor ?? null, limit: PAGE + 1 });
  const items = rows.slice(0, PAGE);
  return { items: items.map(toLine), next_cursor: rows.length > PAGE ? items[items.length - 1].seq : null };
}

/** Today, this month (China time) and all time; for income also what may be withdrawn now (coins only). */
export async function getStatementTotals(accountId: string, bookName: string, now = new Date()): Promise<TStatementTotals> {
  const book = assertBook(bookName);
  const today = chinaToday(now);
  const sums = await repo.sumLines(accountId, BOOKS[book], [chinaDayStart(today), chinaDayStart(`${today.slice(0, 7)}-01`)]);
  // Consumption is money out: shown as a positive total spent.
  const sign = book === "income" ? 1 : -1;
  return {
    today: sign * sums.since[0],
    month: sign * sums.since[1],
    all: sign * sums.all,
    withdrawable: book === "income" ? (await getWallet(accountId)).spendable : null,
  };
}

export async function listStatementApps(accountId: string, bookName: string) {
  const book = assertBook(bookName);
  return (await repo.listLineApps(accountId, BOOKS[book])).map((a) => ({ id: a.app_id, name: a.app_name ?? a.app_id }));
}

/** Every line the filters select, newest first, page by page (for the export). */
export async function* iterateStatement(
  accountId: string,
  bookName: string,
  filters: TStatementFilters,
  max = EXPORT_MAX_LINES,
): AsyncGenerator<TStatementLine[]> {
  const book = assertBook(bookName);
  const query = toQuery(accountId, book, filters);
  let before: string | null = null;
  let seen = 0;
  while (seen < max) {
    const rows = await repo.listLines({ ...query, before, limit: Math.min(1000, max - seen) });
    if (!rows.length) return;
    seen += rows.length;
    yield rows.map(toLine);
    before = rows[rows.length - 1].seq;
  }
}
