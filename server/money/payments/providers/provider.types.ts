// One interface for every way money comes in (WeChat Pay, Alipay, the sandbox).
// Providers speak their protocol and nothing else: the payments service decides what a verified
// notification does to an order and to the ledger.

export type TProviderId = "wechat" | "alipay" | "sandbox";
export const PROVIDER_IDS = ["wechat", "alipay", "sandbox"] as const;

export type TCreateProviderOrder = {
  orderId: string;
  amountMicro: number;
  /** What the payer sees on the phone or the cashier page. */
  description: string;
  notifyUrl: string;
  returnUrl: string | null;
};

/** What the payer opens: WeChat's code_url (shown as a QR code), Alipay's cashier URL, or the sandbox's cashier page. */
export type TProviderOrder = { payUrl: string | null };

/** What the provider says about an order, after its signature was checked. */
export type TProviderReport = {
  orderId: string;
  outcome: "paid" | "failed" | "pending";
  providerTradeNo: string | null;
  /** The amount the provider says was paid, in micro-Z (null when it names none). */
  amountMicro: number | null;
};

export type TNotifyRequest = { headers: Record<string, string | string[] | undefined>; rawBody: Buffer };
export type THttpAnswer = { status: number; contentType: string; body: string };

export interface TPaymentProvider {
  id: TProviderId;
  createOrder(order: TCreateProviderOrder): Promise<TProviderOrder>;
  /** Verifies and reads a notification; throws AppError("payment_signature_invalid") when forged. */
  parseNotification(req: TNotifyRequest): TProviderReport;
  /** Asks the provider for the order's state (a lost notification, a closed order). */
  queryOrder(orderId: string): Promise<TProviderReport>;
  /** Stops the provider accepting a payment for the order (before it is closed here). */
  closeOrder(orderId: string): Promise<void>;
  /** What the provider expects in answer to a notification we took (or refused: it retries). */
  answer(accepted: boolean): THttpAnswer;
}

export const FEN_MICRO = 10_000;
export const fenToMicro = (fen: number) => fen * FEN_MICRO;
export const microToFen = (micro: number) => Math.round(micro / FEN_MICRO);
/** "50.00" from 50 yuan in micro-Z, as Alipay writes amounts. */
export const microToYuanText = (micro: number) => {
  const fen = microToFen(micro);
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, "0")}`;
};
/** Micro-Z from a yuan amount written with at most two decimals, or null. */
export function yuanTextToMicro(text: string): number | null {
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  return (Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"))) * FEN_MICRO;
}

export function headerOf(headers: TNotifyRequest["headers"], name: string): string {
  const v = headers[name.toLowerCase()];
  return (Array.isArray(v) ? v[0] : v) ?? "";
}
