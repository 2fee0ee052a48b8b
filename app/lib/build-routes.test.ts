import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROUTE_TABLE, toMobiPath } from "../route-table";
import { buildRouteNodes, listPaths, type TRouteNode } from "./build-routes";

const nodes = buildRouteNodes(ROUTE_TABLE);
const paths = listPaths(nodes);
const allIds = (ns: TRouteNode[]): string[] => ns.flatMap((n) => [n.id, ...allIds(n.children ?? [])]);

describe("route table", () => {
  it("registers every page at its path and at /mobi + its path, from the same module (desktop-only pages at the path alone)", () => {
    for (const entry of ROUTE_TABLE.filter((r) => !r.mobiOnly)) {
      const registrations = nodes
        .flatMap((n) => n.children ?? [])
        .filter((c) => c.file === entry.file && (c.path === entry.path || c.path === toMobiPath(entry.path)));
      expect(registrations.map((r) => r.path).sort()).toEqual(entry.desktopOnly ? [entry.path] : [entry.path, toMobiPath(entry.path)].sort());
    }
  });

  it("registers mobile-only pages once, under /mobi (their desktop path belongs to a desktop-only page, if any)", () => {
    const children = nodes.flatMap((n) => n.children ?? []);
    for (const entry of ROUTE_TABLE.filter((r) => r.mobiOnly)) {
      expect(paths).toContain(`/mobi${entry.path}`);
      expect(children.filter((c) => c.path === entry.path && c.file === entry.file)).toEqual([]);
    }
  });

  it("has the mobile-only /mobi paths", () => {
    for (const p of ["/mobi/dialogue", "/mobi/withdrawal_tip", "/mobi/intro", "/mobi/scan", "/mobi/error", "/mobi/upgrade"]) expect(paths).toContain(p);
  });

  it("gives every route a unique id and no path twice", () => {
    const ids = allIds(nodes);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it("ends with catch-all 404 routes for desktop and phone", () => {
    expect(paths.slice(-2)).toEqual(["/mobi/*", "*"]);
  });

  it("points only at modules that exist", () => {
    const files = [...new Set(allIds(nodes).length ? nodes.flatMap((n) => [n.file, ...(n.children ?? []).map((c) => c.file)]) : [])];
    for (const f of files) expect(fs.existsSync(path.join(import.meta.dirname, "..", f)), f).toBe(true);
  });

  it("maps paths to their phone variants", () => {
    expect(toMobiPath("/")).toBe("/mobi");
    expect(toMobiPath("/case")).toBe("/mobi/case");
    expect(toMobiPath("/mobi/case")).toBe("/mobi/case");
  });
});
