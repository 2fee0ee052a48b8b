// The antd stylesheet: it covers every antd component the app imports, a page rendered
// with the shared cache needs nothing inlined, and a style it lacks is inlined by the page.
import fs from "node:fs";
import path from "node:path";
import { StyleProvider } from "@ant-design/cssinjs";
import * as A from "antd";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ANTD_CATALOGUE, antdHeadMarkup, createAntdRenderCache, getAntdRenderCache, getAntdStylesheet } from "./antd-stylesheet.server";
import { THEME } from "./theme";

const APP = path.resolve(import.meta.dirname, "..");
// Providers and helpers that carry no component styles of their own.
const NOT_STYLED = new Set(["ConfigProvider", "Grid", "theme"]);

function antdImports(): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.tsx?$/.test(entry.name)) {
        for (const m of fs.readFileSync(file, "utf8").matchAll(/import\s*\{([^}]*)\}\s*from\s*"antd"/g)) {
          for (const raw of m[1].split(",")) {
            const name = raw.trim().split(/\s+as\s+/)[0];
            if (name && !name.startsWith("type ")) found.set(name, path.relative(APP, file));
          }
        }
      }
    }
  };
  walk(APP);
  return found;
}

describe("antd stylesheet", () => {
  it("covers every antd component the app imports", () => {
    const missing = [...antdImports()].filter(([name]) => !NOT_STYLED.has(name) && !(ANTD_CATALOGUE as readonly string[]).includes(name));
    expect(missing.map(([name, file]) => `${name} (${file})`)).toEqual([]);
  });

  it("carries the cache-path map, so the browser does not inject the same styles again", () => {
    const sheet = getAntdStylesheet();
    expect(sheet.css).toMatch(/\.data-ant-cssinjs-cache-path\{content:"[^"]+"/);
    expect(sheet.css).toContain(".zl-theme{");
    expect(sheet.href).toBe(`/_antd/${sheet.hash}.css`);
  });

  it("a console-like page rendered with the shared cache inlines nothing", () => {
    const cache = getAntdRenderCache();
    renderToString(
      <StyleProvider cache={cache} hashPriority="high">
        <A.ConfigProvider theme={THEME} componentSize="small">
          <A.App>
            <A.Card title="t">
              <A.Form layout="vertical">
                <A.Form.Item label="x" name="x" rules={[{ required: true }]}>
                  <A.Input />
                </A.Form.Item>
              </A.Form>
              <A.Table rowKey="a" dataSource={[{ a: 1 }]} columns={[{ title: "a", dataIndex: "a" }]} />
              <A.Select options={[{ value: 1, label: "x" }]} value={1} />
              <A.Tabs items={[{ key: "a", label: "a", children: "x" }]} />
              <A.Tag color="purple">t</A.Tag>
              <A.Steps items={[{ title: "a" }]} />
            </A.Card>
          </A.App>
        </A.ConfigProvider>
      </StyleProvider>,
    );
    expect(antdHeadMarkup()).toBe(`<link rel="stylesheet" href="${getAntdStylesheet().href}">`);
  });

  it("tells a page that used antd from one that did not (a lean page links no stylesheet)", () => {
    const lean = createAntdRenderCache();
    renderToString(
      <StyleProvider cache={lean.cache}>
        <main>plain</main>
      </StyleProvider>,
    );
    expect(lean.used()).toBe(false);
    const rich = createAntdRenderCache();
    const before = getAntdRenderCache().cache.size;
    renderToString(
      <StyleProvider cache={rich.cache} hashPriority="high">
        <A.ConfigProvider theme={THEME}>
          <A.Button>b</A.Button>
        </A.ConfigProvider>
      </StyleProvider>,
    );
    expect(rich.used()).toBe(true);
    // The styles were already in the shared cache: nothing computed again.
    expect(getAntdRenderCache().cache.size).toBe(before);
  });

  it("a style the stylesheet lacks is inlined", async () => {
    const cache = getAntdRenderCache();
    // A theme no page uses: its styles are not in the stylesheet.
    renderToString(
      <StyleProvider cache={cache} hashPriority="high">
        <A.ConfigProvider theme={{ ...THEME, cssVar: { key: "zl-test-other" }, token: { colorPrimary: "#ff0000" } }}>
          <A.Button type="primary">b</A.Button>
        </A.ConfigProvider>
      </StyleProvider>,
    );
    const head = antdHeadMarkup();
    expect(head).toContain("<style data-antd-extra>");
    expect(head).toContain("zl-test-other");
    expect(head).not.toMatch(/data-ant-cssinjs-cache-path/);
  });
});
