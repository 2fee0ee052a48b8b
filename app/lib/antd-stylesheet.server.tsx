// antd's styles as one cacheable stylesheet instead of ~200 KB of <style> in every page (the
// market's render time; antd's "extract on demand" with a file, docs/decisions/0011-antd-stylesheet.md).
//
// At first use each process renders the antd components the app uses once, under our theme, into one
// cssinjs cache and extracts it as plain CSS. The result depends only on the code (antd's version,
// THEME), so every web instance computes the same text and the same hash: whichever instance a
// browser asks for /_antd/<hash>.css has it. The file carries cssinjs's cache-path map (the
// `.data-ant-cssinjs-cache-path{content:...}` rule), so the browser does not inject those styles a
// second time when it hydrates.
//
// A page that renders a style the catalogue lacks (an unusual variant) still gets it: whatever the
// shared render cache holds beyond the catalogue is inlined in a <style>.
import crypto from "node:crypto";
import zlib from "node:zlib";
import { createCache, extractStyle, StyleProvider } from "@ant-design/cssinjs";
import * as antd from "antd";
import { App as AntApp, ConfigProvider } from "antd";
import { createElement, Fragment, type ComponentType, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import type { TAntdStylesheet } from "../../common/antd-stylesheet";
import { THEME } from "./theme";

type TCache = ReturnType<typeof createCache>;

/**
 * The antd components the app imports (a unit test keeps this list in step with app/), plus the
 * toasts App.useApp() shows. Only these go into the stylesheet: all of antd would be 1.3 MB of CSS.
 */
export const ANTD_CATALOGUE = [
  "Alert",
  "App",
  "Avatar",
  "Badge",
  "Button",
  "Card",
  "Carousel",
  "Checkbox",
  "Col",
  "Collapse",
  "ColorPicker",
  "Descriptions",
  "Drawer",
  "Dropdown",
  "Empty",
  "Form",
  "Image",
  "Input",
  "InputNumber",
  "Layout",
  "List",
  "Menu",
  "Modal",
  "Pagination",
  "Popconfirm",
  "Popover",
  "Progress",
  "Radio",
  "Result",
  "Row",
  "Segmented",
  "Select",
  "Skeleton",
  "Space",
  "Spin",
  "Statistic",
  "Steps",
  "Switch",
  "Table",
  "Tabs",
  "Tag",
  "Timeline",
  "Tooltip",
  "Typography",
  "Upload",
  "message",
  "notification",
] as const;

// Components that render nothing (or throw) without some props, or whose parts register their own
// styles: rendered the way their styles all register.
type TAny = ComponentType<Record<string, unknown>> & Record<string, ComponentType<Record<string, unknown>>>;
const h = (c: unknown, props: Record<string, unknown> | null = null, ...children: ReactNode[]) => createElement(c as ComponentType, props, ...children);
const CUSTOM: Record<string, (c: TAny) => ReactNode> = {
  Badge: (c) => h(Fragment, null, h(c, { count: 1 }), h(c.Ribbon, { text: "x" }, h("div"))),
  Dropdown: (c) => h(c, { menu: { items: [] } }, h("div")),
  Form: (c) => h(c, null, h(c.Item, { label: "x" }, h("input"))),
  Input: (c) => h(Fragment, null, h(c), h(c.Search), h(c.TextArea), h(c.Password)),
  Layout: (c) => h(c, null, h(c.Header), h(c.Sider), h(c.Content), h(c.Footer)),
  Menu: (c) => h(c, { items: [{ key: "a", label: "a" }] }),
  Modal: (c) => h(Fragment, null, h(c), h(c._InternalPanelDoNotUseOrYouWillBeFired), h(c._InternalPanelDoNotUseOrYouWillBeFired, { type: "confirm" })),
  Popconfirm: (c) => h(c, { title: "x" }, h("span")),
  Popover: (c) => h(c, { content: "x" }, h("span")),
  Space: (c) => h(Fragment, null, h(c), h(c.Compact, null, h(antd.Button))),
  Tag: (c) => h(Fragment, null, h(c, { color: "blue" }, "t"), h(c, { color: "success" }, "t"), h(c.CheckableTag, { checked: true }, "t")),
  Tooltip: (c) => h(c, { title: "x" }, h("span")),
  Typography: (c) => h(Fragment, null, h(c.Title), h(c.Text), h(c.Paragraph), h(c.Link)),
  message: (c) => h(c._InternalPanelDoNotUseOrYouWillBeFired),
  notification: (c) => h(c._InternalPanelDoNotUseOrYouWillBeFired),
};

function renderInto(cache: TCache, node: ReactNode) {
  renderToString(
    <StyleProvider cache={cache} hashPriority="high">
      <ConfigProvider theme={THEME}>
        <AntApp>{node}</AntApp>
      </ConfigProvider>
    </StyleProvider>,
  );
}

// One cssinjs cache for every render of this process: a style is computed the first time any page
// uses it, never again (a cache per request recomputed ~200 KB of CSS for every page).
const shared = createCache();

function buildStylesheet(): TAntdStylesheet {
  const all = antd as unknown as Record<string, TAny>;
  for (const name of ANTD_CATALOGUE) {
    const component = all[name];
    // One component at a time: one that cannot render without its context costs only itself.
    try {
      renderInto(shared, CUSTOM[name] ? CUSTOM[name](component) : h(component));
    } catch {
      /* its styles, if a page uses it, are inlined by the pages (antdHeadMarkup) */
    }
  }
  const css = extractStyle(shared, { plain: true });
  const hash = crypto.createHash("sha256").update(css).digest("hex").slice(0, 16);
  const gzipped = zlib.gzipSync(css, { level: 9 });
  return { css, gzipped, hash, href: `/_antd/${hash}.css`, keys: new Set(shared.cache.keys()) };
}

let built: TAntdStylesheet | undefined;
export function getAntdStylesheet(): TAntdStylesheet {
  built ??= buildStylesheet();
  return built;
}

/**
 * The cache a page renders with (StyleProvider): the shared one, seen through an object that notes
 * whether the page used antd at all, so pages without it (the H5 chat's lean layout) link nothing.
 */
export function createAntdRenderCache(): { cache: TCache; used: () => boolean } {
  getAntdStylesheet();
  let used = false;
  // Reads and writes go to the shared cache's maps through the prototype; only the flag is ours.
  const cache = Object.create(shared) as TCache;
  cache.opGet = (key) => {
    used = true;
    return shared.opGet(key);
  };
  cache.opUpdate = (key, fn) => {
    used = true;
    shared.opUpdate(key, fn);
  };
  return { cache, used: () => used };
}

/** The shared cache itself (tests). */
export const getAntdRenderCache = (): TCache => (getAntdStylesheet(), shared);

const CACHE_MAP_RULE = /\.data-ant-cssinjs-cache-path\{content:"[^"]*";\}/g;
let extras = { size: -1, markup: "" };

/**
 * The <head> markup of a page: the stylesheet link and, in a <style>, whatever styles pages of this
 * process used that the stylesheet lacks (usually none; recomputed only when the cache grew). The
 * extras carry no cache-path map, so cssinjs in the browser keeps the stylesheet's.
 */
export function antdHeadMarkup(): string {
  const sheet = getAntdStylesheet();
  if (extras.size !== shared.cache.size) {
    const extra = createCache();
    for (const [key, value] of shared.cache) {
      if (sheet.keys.has(key)) continue;
      extra.cache.set(key, value);
      extra.updateTimes.set(key, shared.updateTimes.get(key) ?? 0);
    }
    const css = extra.cache.size ? extractStyle(extra, { plain: true }).replace(CACHE_MAP_RULE, "") : "";
    extras = { size: shared.cache.size, markup: css ? `<style data-antd-extra>${css}</style>` : "" };
  }
  return `<link rel="stylesheet" href="${sheet.href}">${extras.markup}`;
}
