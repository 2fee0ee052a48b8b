// The browser's calls for top-up (server/money/payments/payments.http.ts), typed by the shared schema.
import { apiRequest } from "../../lib/api-client";
import { formatZBalance, yuanToMicro } from "../../../server/money/money-format";
import type { TPaymentOptions, TPaymentOrderView, TPaymentProviderId, TWalletView } from "../../../server/money/payments/payments.schema";

export const getPaymentOptions = () => apiRequest<TPaymentOptions>("/api/v1/pay/options");
export const getWalletView = () => apiRequest<TWalletView>("/api/v1/pay/wallet");
export const createTopup = (amount: string, provider: TPaymentProviderId) =>
  apiRequest<TPaymentOrderView>("/api/v1/pay/topup", { method: "POST", body: { amount, provider } });
export const getOrder = (id: string) => apiRequest<TPaymentOrderView>(`/api/v1/pay/orders/${encodeURIComponent(id)}`);

/** A wallet's balance (the view gives yuan) as every page shows balances: rounded down to the fen. */
export const formatCoins = (yuan: number) => formatZBalance(yuanToMicro(yuan));

/** Event other parts fire after they change the wallet (a purchase...), so the header balance follows. */
export const WALLET_CHANGED_EVENT = "zelin:wallet-changed";
