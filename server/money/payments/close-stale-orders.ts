// Job money.close-stale-orders: orders still pending after PAYMENT_ORDER_TTL_MINUTES are settled.
// The provider is asked first (a payment whose notification was lost is credited, not closed);
// otherwise the order is closed at the provider, so no later payment can land on it, then here.
import { logger } from "../../lib/logger";
import { getPaymentSettings } from "./payment-settings";
import * as repo from "./payment-orders.repository";
import { applyProviderReport, applyUnpaidOrder } from "./payment-apply.service";
import { getProvider } from "./providers";

/** Orders of the retired hand-confirmed provider: no provider to ask or close them at, only here. */
const RETIRED_PROVIDER = "dev";

export const CLOSE_STALE_ORDERS_EVERY_MS = 5 * 60_000;
const BATCH = 200;

export async function closeStaleOrders(now = new Date()): Promise<{ closed: number; settled: number; skipped: number }> {
  const before = new Date(now.getTime() - getPaymentSettings().orderTtlMinutes * 60_000);
  const stale = await repo.findStalePending(before, BATCH);
  const counts = { closed: 0, settled: 0, skipped: 0 };
  for (const order of stale) {
    try {
      if (order.provider !== RETIRED_PROVIDER) {
        const provider = getProvider(order.provider);
        const report = await provider.queryOrder(order.id);
        if (report.outcome !== "pending") {
          await applyProviderReport(order.provider, report, JSON.stringify({ query: report }));
          counts.settled++;
          continue;
        }
        await provider.closeOrder(order.id);
      }
      if (
        (await applyUnpaidOrder(order.id, "cancelled", "not paid in time", {
          provider: order.provider,
          body: JSON.stringify({ closedAt: now.toISOString() }),
        })) === "applied"
      )
        counts.closed++;
    } catch (err) {
      // A provider that cannot be reached (or no longer configured) is asked again on the next run.
      counts.skipped++;
      logger.warn({ err, orderId: order.id }, "payments: a stale order could not be settled now");
    }
  }
  return counts;
}

export async function handleCloseStaleOrders() {
  const counts = await closeStaleOrders();
  if (counts.closed || counts.settled || counts.skipped) logger.info(counts, "payments: stale orders settled");
  return counts;
}
