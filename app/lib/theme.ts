import type { ThemeConfig } from "antd";

/** Zelin's look: indigo primary with a cyan accent, generous radius, CJK-friendly type. */
export const BRAND = { primary: "#4f46e5", accent: "#06b6d4", ink: "#0f172a", muted: "#64748b", surface: "#f8fafc" };

export const FONT_STACK =
  '"Inter", "PingFang SC", "Hiragino Sans GB", "Noto Sans CJK SC", "Microsoft YaHei", -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

export const THEME: ThemeConfig = {
  // A fixed key for the theme's CSS variables (antd would derive it from React's useId, which
  // differs with each page's tree): every page then shares the stylesheet's variables
  // (lib/antd-stylesheet.server.tsx).
  cssVar: { key: "zl-theme" },
  token: {
    colorPrimary: BRAND.primary,
    colorInfo: BRAND.primary,
    colorLink: BRAND.primary,
    colorTextBase: BRAND.ink,
    borderRadius: 10,
    fontFamily: FONT_STACK,
  },
  components: {
    Button: { fontWeight: 500 },
    Layout: { headerBg: "#ffffff", bodyBg: "#ffffff", footerBg: BRAND.ink },
  },
};
