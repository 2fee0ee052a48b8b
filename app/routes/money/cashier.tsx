// /cashier?order_id=&return=: the sandbox's cashier page, where the payer of a sandbox order pays or
// cancels it (no real money). The payer is the signed-in account that made the order, or for a paid
// registration the page holding its claim (&claim=); anyone else gets the not-found page, and a
// visitor with neither is asked to log in first.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { SandboxCashier } from "../../components/money/sandbox-cashier";
import { pageMeta } from "../../components/site/page-meta";
import { getSessionAccount, requireSessionAccount } from "../../lib/auth.server";
import { orNotFound } from "../../lib/or-not-found.server";
import { toSafeRedirect } from "../../../server/lib/safe-redirect";
import { getCashierOrder } from "../../../server/money/payments/sandbox-cashier.service";
import "../../components/money/cashier.css";

export const handle = { i18n: ["payments", "common"] };
export const meta = pageMeta("Sandbox cashier · Zelin");

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const claim = url.searchParams.get("claim")?.slice(0, 200) || null;
  const account = claim ? await getSessionAccount(request) : await requireSessionAccount(request);
  const order = await orNotFound(() => getCashierOrder({ accountId: account?.id ?? null, claim }, url.searchParams.get("order_id")));
  // Back to the page that sent the payer here; a registration has no console to go back to.
  const fallback = order.purpose === "registration" ? "/registered" : "/";
  return { order, claim, returnTo: toSafeRedirect(url.searchParams.get("return"), fallback) };
}

export default function CashierPage() {
  const data = useLoaderData<typeof loader>();
  return <SandboxCashier order={data.order} claim={data.claim} returnTo={data.returnTo} />;
}
