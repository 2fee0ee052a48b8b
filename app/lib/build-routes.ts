// Turns the route table into Remix route config. Pure so a unit test can check every page is
// registered at its path and at /mobi + path, mobile-only pages once, with unique ids.
import type { TLayout, TRouteEntry } from "../route-table";
import { LAYOUT_FILES, toMobiPath } from "../route-table";

export type TRouteNode = { id: string; path?: string; file: string; children?: TRouteNode[] };

export function buildRouteNodes(table: TRouteEntry[]): TRouteNode[] {
  const nodes: TRouteNode[] = [];
  const layouts = [...new Set(table.map((r) => r.layout))] as TLayout[];
  for (const layout of layouts) {
    const entries = table.filter((r) => r.layout === layout);
    const desktop = entries.filter((r) => !r.mobiOnly).map((r) => ({ id: r.id, path: r.path, file: r.file }));
    const mobi = entries.filter((r) => !r.desktopOnly).map((r) => ({ id: `mobi.${r.id}`, path: toMobiPath(r.path), file: r.file }));
    if (desktop.length) nodes.push({ id: `layout.${layout}`, file: LAYOUT_FILES[layout], children: desktop });
    nodes.push({ id: `layout.mobi.${layout}`, file: LAYOUT_FILES[layout], children: mobi });
  }
  nodes.push({ id: "mobi.not_found", path: "/mobi/*", file: "routes/shell/not-found.tsx" });
  nodes.push({ id: "not_found", path: "*", file: "routes/shell/not-found.tsx" });
  return nodes;
}

/** Every registered path, flattened: for tests and the sitemap. */
export function listPaths(nodes: TRouteNode[]): string[] {
  return nodes.flatMap((n) => [...(n.path ? [n.path] : []), ...listPaths(n.children ?? [])]);
}
