// The antd stylesheet as the page's render bundle builds it (app/lib/antd-stylesheet.server.tsx) and
// the web server serves it at /_antd/<hash>.css (server/http/antd-stylesheet.http.ts).
export type TAntdStylesheet = { css: string; gzipped: Buffer; hash: string; href: string; keys: Set<string> };
