// The server's areas (the first folder under server/: accounts, money, knowledge…) depend on each
// other in one direction only. Two areas that import each other cannot be read, tested or moved
// one without the other, and a cycle through several areas is the same knot, only longer. Every
// import counts, type-only and dynamic ones too: they couple the code all the same.
//
// server/http and server/trpc are the transport layer, not areas: they mount every area's routes
// and lend them the request helpers, so they sit on both sides of every area by design.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SERVER = path.resolve(import.meta.dirname, "../../server");
const TRANSPORT = new Set(["http", "trpc"]);
const SKIPPED_FOLDERS = new Set(["generated", "node_modules"]);

/**
 * Pairs of areas that still import each other while a move between them is under way. Each entry
 * is a debt with an owner; the list only ever shrinks.
 */
const PAIRS_BEING_SPLIT: [string, string][] = [];

type TEdge = { from: string; to: string; file: string; specifier: string };

function listSourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : listSourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The area of a path under server/: its first folder, or the file's own name for files at the top. */
function areaOf(file: string) {
  const [first, ...rest] = path.relative(SERVER, file).split(path.sep);
  return rest.length ? first : first.replace(/\.[cm]?[jt]sx?$/, "");
}

/** Static imports, re-exports and dynamic import() calls that point inside server/. */
function findCrossAreaEdges(): TEdge[] {
  const edges: TEdge[] = [];
  for (const file of listSourceFiles(SERVER)) {
    const from = areaOf(file);
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
    for (const { fileName: specifier } of importedFiles) {
      if (!specifier.startsWith(".")) continue;
      const target = path.resolve(path.dirname(file), specifier);
      if (!target.startsWith(SERVER + path.sep)) continue;
      const to = areaOf(target);
      if (from !== to && !TRANSPORT.has(from) && !TRANSPORT.has(to)) edges.push({ from, to, file: path.relative(SERVER, file), specifier });
    }
  }
  return edges;
}

const isBeingSplit = (a: string, b: string) => PAIRS_BEING_SPLIT.some(([x, y]) => (x === a && y === b) || (x === b && y === a));

function buildGraph(edges: TEdge[]) {
  const graph = new Map<string, Map<string, TEdge>>();
  for (const edge of edges) {
    if (isBeingSplit(edge.from, edge.to)) continue;
    if (!graph.has(edge.from)) graph.set(edge.from, new Map());
    if (!graph.get(edge.from)!.has(edge.to)) graph.get(edge.from)!.set(edge.to, edge);
  }
  return graph;
}

/** One cycle of the graph as the list of its areas (first = last), or null when there is none. */
function findCycle(graph: Map<string, Map<string, TEdge>>): string[] | null {
  const state = new Map<string, "open" | "done">();
  const trail: string[] = [];
  const visit = (area: string): string[] | null => {
    state.set(area, "open");
    trail.push(area);
    for (const next of graph.get(area)?.keys() ?? []) {
      if (state.get(next) === "open") return [...trail.slice(trail.indexOf(next)), next];
      if (!state.has(next)) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    trail.pop();
    state.set(area, "done");
    return null;
  };
  for (const area of [...graph.keys()].sort()) {
    if (state.has(area)) continue;
    const cycle = visit(area);
    if (cycle) return cycle;
  }
  return null;
}

const describeEdge = (e: TEdge) => `  ${e.from} -> ${e.to}: server/${e.file} imports "${e.specifier}"`;

describe("dependencies between server areas", () => {
  const edges = findCrossAreaEdges();

  it("finds the areas' imports (the scan itself works)", () => {
    expect(edges.length).toBeGreaterThan(20);
    expect(edges.some((e) => e.from === "money" && e.to === "accounts")).toBe(true);
  });

  it("has no two areas importing each other", () => {
    const pairs = new Set<string>();
    const lines: string[] = [];
    for (const edge of edges) {
      if (edge.from > edge.to || isBeingSplit(edge.from, edge.to)) continue;
      const back = edges.filter((e) => e.from === edge.to && e.to === edge.from);
      if (!back.length) continue;
      const key = `${edge.from}/${edge.to}`;
      if (pairs.has(key)) continue;
      pairs.add(key);
      lines.push(`${key}:`, ...edges.filter((e) => e.from === edge.from && e.to === edge.to).map(describeEdge), ...back.map(describeEdge));
    }
    expect(
      lines,
      `Areas importing each other; move the shared piece to the area that owns it, or below both, or pass a function in:\n${lines.join("\n")}`,
    ).toEqual([]);
  });

  it("has no cycle through several areas", () => {
    const graph = buildGraph(edges);
    const cycle = findCycle(graph);
    const detail = cycle ? cycle.slice(0, -1).map((area, i) => describeEdge(graph.get(area)!.get(cycle[i + 1])!)) : [];
    expect(cycle, `A cycle between areas: ${cycle?.join(" -> ")}\n${detail.join("\n")}`).toBeNull();
  });

  it("lists only pairs that still import each other as being split", () => {
    const stale = PAIRS_BEING_SPLIT.filter(([a, b]) => !(edges.some((e) => e.from === a && e.to === b) && edges.some((e) => e.from === b && e.to === a)));
    expect(stale, "These pairs no longer import each other: take them off PAIRS_BEING_SPLIT").toEqual([]);
  });
});
