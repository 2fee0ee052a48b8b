// The browser's one way to call /api. It appends touser, sends form-encoded bodies, and acts on
// the platform codes (login expired, go elsewhere, licence) before the caller sees the answer.
import { TOUSER, withTouser } from "./carry-query";

export type TEnvelope<T = unknown> = { status: number; description: string; data: T; message?: unknown };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly description: string,
    readonly data: unknown,
  ) {
    super(description);
    this.name = "ApiError";
  }
}

export type TFieldError = { path: string; message: string };

/** The field errors a refusal carries (validation_failed and services that name a field), or none. */
export function fieldErrorsOf(err: unknown): TFieldError[] {
  if (!(err instanceof ApiError)) return [];
  return (err.data as { fields?: TFieldError[] } | null)?.fields ?? [];
}

/** The sentence to show for a failed call: a refusal's localized description, else `fallback` or the error's own text. */
export function errorText(err: unknown, fallback?: string): string {
  if (err instanceof ApiError) return err.description;
  return fallback ?? String(err);
}

export const LICENCE_EVENT = "zelin:licence";
export type TLicenceEventDetail = { status: 10001 | 10002; start_time: number | null; end_time: number | null; contact_phone?: string };

export type TBrowserEnv = {
  location: { href: string; hostname: string; pathname: string; search: string; assign: (url: string) => void };
  ownHosts: string[];
  dispatch: (name: string, detail: unknown) => void;
  touser: () => string | null;
};

/** Where a 110003 sends the user: /login on our own hosts, /sso_login keeping `domain` elsewhere. */
export function loginRedirectTarget(loc: TBrowserEnv["location"], ownHosts: string[]) {
  const here = new URL(loc.href);
  const isOwn = ownHosts.includes(loc.hostname.toLowerCase());
  if (isOwn) return `/login?redirect=${encodeURIComponent(loc.pathname + loc.search)}`;
  const domain = here.searchParams.get("domain") ?? loc.hostname;
  return `/sso_login?domain=${encodeURIComponent(domain)}`;
}

/** Acts on the platform codes. Returns true when the page is being sent elsewhere. */
export function handlePlatformStatus(envelope: TEnvelope, env: TBrowserEnv): boolean {
  switch (envelope.status) {
    case 110003:
      if (!env.location.pathname.startsWith("/login") && !env.location.pathname.startsWith("/sso_login")) {
        env.location.assign(loginRedirectTarget(env.location, env.ownHosts));
        return true;
      }
      return false;
    case 494105: {
      const url = (envelope.data as { url?: string } | null)?.url;
      if (url) env.location.assign(url);
      return Boolean(url);
    }
    case 10001:
    case 10002: {
      const range = (envelope.message ?? envelope.data ?? {}) as Partial<TLicenceEventDetail>;
      env.dispatch(LICENCE_EVENT, {
        status: envelope.status,
        start_time: range.start_time ?? null,
        end_time: range.end_time ?? null,
        contact_phone: (envelope.data as { contact_phone?: string } | null)?.contact_phone,
      });
      return false;
    }
    default:
      return false;
  }
}

let browserEnv: TBrowserEnv | undefined;
export function configureApiClient(env: TBrowserEnv) {
  browserEnv = env;
}

export function getBrowserEnv(): TBrowserEnv {
  return (
    browserEnv ?? {
      location: window.location,
      ownHosts: [],
      dispatch: (name, detail) => window.dispatchEvent(new CustomEvent(name, { detail })),
      touser: () => new URLSearchParams(window.location.search).get(TOUSER) ?? sessionStorage.getItem(TOUSER),
    }
  );
}

function encodeForm(body: Record<string, unknown>) {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    // Arrays and objects travel as JSON text inside the form (ufids, for one).
    form.set(key, typeof value === "object" ? JSON.stringify(value) : String(value));
  }
  return form;
}

export async function apiRequest<T = unknown>(
  path: string,
  opts: { method?: "GET" | "POST" | "PUT" | "DELETE"; body?: Record<string, unknown>; json?: boolean; env?: TBrowserEnv; fetchImpl?: typeof fetch } = {},
): Promise<T> {
  const env = opts.env ?? getBrowserEnv();
  const url = withTouser(path, env.touser());
  const method = opts.method ?? (opts.body ? "POST" : "GET");
  const headers: Record<string, string> = { Accept: "application/json" };
  const csrf = typeof document !== "undefined" ? /(?:^|;\s*)zl_csrf=([^;]+)/.exec(document.cookie)?.[1] : undefined;
  if (csrf && method !== "GET") headers["X-CSRF-Token"] = decodeURIComponent(csrf);
  let body: BodyInit | undefined;
  if (opts.body) {
    if (opts.json) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(opts.body);
    } else {
      body = encodeForm(opts.body);
    }
  }
  // No timeout: long generations answer when they are done.
  const res = await (opts.fetchImpl ?? fetch)(url, { method, headers, body, credentials: "same-origin" });
  const envelope = (await res.json()) as TEnvelope<T>;
  handlePlatformStatus(envelope, env);
  if (envelope.status !== 200 && envelope.status !== 10001) throw new ApiError(envelope.status, envelope.description, envelope.data);
  return envelope.data;
}
