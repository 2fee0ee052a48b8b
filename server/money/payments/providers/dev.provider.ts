// The development provider: no money moves anywhere. An order waits until a platform administrator
// confirms or fails it by hand on /admin/payments. On by default only on an install with no real
// provider configured (payment-settings.ts); every screen that offers it says "no real money".
import { AppError } from "../../../errors/app-error";
import type { TPaymentProvider } from "./provider.types";

export function createDevProvider(): TPaymentProvider {
  return {
    id: "dev",
    createOrder: async () => ({ payUrl: null }),
    parseNotification: () => {
      // Nobody outside may report a development payment: only the administrator's confirmation does.
      throw new AppError("payment_signature_invalid");
    },
    queryOrder: async (orderId) => ({ orderId, outcome: "pending", providerTradeNo: null, amountMicro: null }),
    closeOrder: async () => {},
    answer: (accepted) => ({ status: accepted ? 200 : 400, contentType: "text/plain", body: accepted ? "success" : "fail" }),
  };
}
