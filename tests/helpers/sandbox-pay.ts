// Paying or cancelling a sandbox order as its payer does on /cashier: through the API, whose server
// then notifies itself on the providers' notify route, signed as the sandbox.
import type { Browser } from "./api-client";

export function paySandbox(payer: Browser, orderId: string, claim?: string) {
  return payer.call(`/api/v1/pay/sandbox/orders/${encodeURIComponent(orderId)}/pay`, { body: claim ? { claim } : {} });
}

export function cancelSandbox(payer: Browser, orderId: string, claim?: string) {
  return payer.call(`/api/v1/pay/sandbox/orders/${encodeURIComponent(orderId)}/cancel`, { body: claim ? { claim } : {} });
}
