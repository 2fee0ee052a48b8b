export const UI_SIZES = ["small", "medium", "large"] as const;
export type TUiSize = (typeof UI_SIZES)[number];
export const DEFAULT_UI_SIZE: TUiSize = "medium";
export const UI_SIZE_COOKIE = "ui_size";

export function readUiSize(cookieHeader: string | null | undefined): TUiSize {
  const match = /(?:^|;\s*)ui_size=([^;]+)/.exec(cookieHeader ?? "");
  const value = match?.[1];
  return (UI_SIZES as readonly string[]).includes(value ?? "") ? (value as TUiSize) : DEFAULT_UI_SIZE;
}

/** Preferences live in cookies so the server renders the right size and language the first time. */
export function writePreferenceCookie(name: string, value: string) {
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${365 * 24 * 60 * 60}; SameSite=Lax`;
}
