// The gzipped JavaScript a phone downloads to open /mobi/dialogue (budget: 170 KB): the
// entry and its imports, then every route matched on the way (root, the layout, the page), each
// module with its imports, as Remix's browser manifest in the production build lists them.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

type TManifestRoute = { id: string; parentId?: string; path?: string; module: string; imports?: string[] };
type TBrowserManifest = { entry: { module: string; imports: string[] }; routes: Record<string, TManifestRoute> };

const CLIENT = path.resolve(import.meta.dirname, "../build/client");
export const MOBI_BUNDLE_BUDGET = 170 * 1024;

function readBrowserManifest(): TBrowserManifest {
  const assets = path.join(CLIENT, "assets");
  const file = fs.readdirSync(assets).find((f) => /^manifest-[\w-]+\.js$/.test(f));
  if (!file) throw new Error("no Remix browser manifest in build/client/assets: run npm run build");
  const text = fs.readFileSync(path.join(assets, file), "utf8");
  return JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as TBrowserManifest;
}

/** The route chain (root first) whose leaf is registered at `fullPath`. */
function findRouteChain(manifest: TBrowserManifest, fullPath: string): TManifestRoute[] {
  const routes = Object.values(manifest.routes);
  const fullPathOf = (r: TManifestRoute): string => {
    const parent = r.parentId ? manifest.routes[r.parentId] : undefined;
    const base = parent ? fullPathOf(parent) : "";
    return r.path === undefined ? base : `${base.replace(/\/$/, "")}/${r.path.replace(/^\//, "")}`;
  };
  const leaf = routes.find((r) => fullPathOf(r) === fullPath);
  if (!leaf) throw new Error(`no route at ${fullPath} in the manifest`);
  const chain: TManifestRoute[] = [];
  for (let r: TManifestRoute | undefined = leaf; r; r = r.parentId ? manifest.routes[r.parentId] : undefined) chain.unshift(r);
  return chain;
}

const readAsset = (file: string) => fs.readFileSync(path.join(CLIENT, file.replace(/^\//, "")), "utf8");
const gzipSize = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(CLIENT, file.replace(/^\//, ""))), { level: 9 }).length;

/** The chunks a built module imports statically (`from"./x.js"`, `import"./x.js"`) or lazily (`import("./x.js")`). */
function readChunkImports(file: string) {
  const text = readAsset(file);
  const dir = path.posix.dirname(file);
  const resolve = (rel: string) => path.posix.join(dir, rel);
  const statics = [...text.matchAll(/(?:from|import)\s*"(\.\/[\w.-]+\.js)"/g)].map((m) => resolve(m[1]));
  const lazies = [...text.matchAll(/import\(\s*"(\.\/[\w.-]+\.js)"\s*\)/g)].map((m) => resolve(m[1]));
  return { statics, lazies };
}

/** What loads later, on demand (the markdown with the first answer): lazy chunks and their imports not loaded already. */
function measureLazy(initial: Set<string>, from: string[]) {
  const lazy = new Set<string>();
  const queue = from.flatMap((f) => readChunkImports(f).lazies);
  while (queue.length) {
    const f = queue.pop()!;
    if (initial.has(f) || lazy.has(f)) continue;
    lazy.add(f);
    queue.push(...readChunkImports(f).statics);
  }
  return { files: lazy.size, gzipped: [...lazy].reduce((n, f) => n + gzipSize(f), 0), list: [...lazy] };
}

export function measureMobiBundle(page = "/mobi/dialogue") {
  const manifest = readBrowserManifest();
  const files = new Set<string>([manifest.entry.module, ...manifest.entry.imports]);
  const chain = findRouteChain(manifest, page);
  for (const r of chain) for (const f of [r.module, ...(r.imports ?? [])]) files.add(f);
  // The page's own lazy parts; the root's (overlays shown only on a licence notice or a screen lock) are not counted.
  const leaf = chain[chain.length - 1];
  let raw = 0;
  let gzipped = 0;
  const rows: { file: string; gzip: number }[] = [];
  for (const f of files) {
    const body = fs.readFileSync(path.join(CLIENT, f.replace(/^\//, "")));
    const gz = zlib.gzipSync(body, { level: 9 }).length;
    raw += body.length;
    gzipped += gz;
    rows.push({ file: f, gzip: gz });
  }
  rows.sort((a, b) => b.gzip - a.gzip);
  return { page, files: files.size, raw, gzipped, rows, later: measureLazy(files, [leaf.module, ...(leaf.imports ?? [])]) };
}

export function printMobiBundle(page = "/mobi/dialogue") {
  const m = measureMobiBundle(page);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`\nJavaScript ${m.page} loads (production build, ${m.files} files)`);
  console.log(`  gzipped ${kb(m.gzipped)} (raw ${kb(m.raw)}); budget ${kb(MOBI_BUNDLE_BUDGET)}: ${m.gzipped <= MOBI_BUNDLE_BUDGET ? "within" : "OVER"}`);
  for (const r of m.rows.slice(0, 8)) console.log(`    ${kb(r.gzip).padStart(9)}  ${r.file}`);
  console.log(`  loaded later by the page (markdown, with the first answer): ${kb(m.later.gzipped)} in ${m.later.files} files`);
  return m;
}

// `npx tsx bench/mobi-bundle.ts`: the figure alone, from an existing build.
if (import.meta.url === `file://${process.argv[1]}`) printMobiBundle();
