// The browser's tRPC client for the interactive editors. Same CSRF header and platform-code
// handling as api-client: a 110003 from a procedure sends the user to log in.
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import superjson from "superjson";
import type { TAppRouter } from "../../server/trpc/app-router";
import { ApiError, getBrowserEnv, handlePlatformStatus, type TEnvelope } from "./api-client";

function csrfHeader(): Record<string, string> {
  const csrf = typeof document !== "undefined" ? /(?:^|;\s*)zl_csrf=([^;]+)/.exec(document.cookie)?.[1] : undefined;
  return csrf ? { "X-CSRF-Token": decodeURIComponent(csrf) } : {};
}

export const trpc = createTRPCClient<TAppRouter>({
  links: [
    httpBatchLink({ url: "/trpc", transformer: superjson, headers: csrfHeader, fetch: (url, init) => fetch(url, { ...init, credentials: "same-origin" }) }),
  ],
});

/**
 * Runs a procedure call and turns a refusal into an ApiError carrying the envelope (status,
 * localized description, data with field errors), after acting on the platform codes (handlePlatformStatus).
 */
export async function callTrpc<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const envelope = err instanceof TRPCClientError ? ((err.data as { envelope?: TEnvelope } | undefined)?.envelope ?? null) : null;
    if (!envelope) throw err;
    handlePlatformStatus(envelope, getBrowserEnv());
    throw new ApiError(envelope.status, envelope.description, envelope.data);
  }
}
