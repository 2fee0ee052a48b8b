// Comments and test names state the rule itself, or point at a file in docs/: a reader of the
// repository has no numbered specification, design, issue or contract to look up. Decision records
// are cited by their path (docs/decisions/0008-ledger-single-statement-postings.md), not by number.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const REPO = path.resolve(import.meta.dirname, "../..");
const SCANNED_DIRS = ["app", "server", "bot-gateway", "workers", "scripts", "bench", "prisma", "tests"];
const SCANNED_ROOT_FILES = ["vite.config.ts", "vitest.config.ts", "prisma.config.ts"];
const EXTENSIONS = [".ts", ".tsx", ".mjs", ".css", ".prisma"];
// Built output, generated code and applied migrations (their checksums are recorded) are not ours to edit.
const SKIPPED_DIRS = new Set(["node_modules", "build", "generated", "migrations"]);
const SELF = path.relative(REPO, import.meta.filename);

const CITATION = new RegExp(
  [
    String.raw`\bSPECS?\s*[0-9§]`,
    String.raw`\bDESIGN\s*[0-9§]`,
    String.raw`\b[Ii]ssues?\s*#?[0-9]`,
    String.raw`\b[Cc]ontracts?\s*#?[0-9]`,
    String.raw`\bthe [a-z-]+ issue\b`,
    String.raw`\bthe issue's`,
    String.raw`\b(?:later|earlier|next|previous|future) issues?\b`,
    String.raw`\b[Ss]pec\s*(?:section|§)`,
    String.raw`\b[Dd]ecision\s+0[0-9]{3}\b`,
  ].join("|"),
);

function listScannedFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".") || SKIPPED_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...listScannedFiles(full));
    else if (EXTENSIONS.some((ext) => entry.name.endsWith(ext))) found.push(full);
  }
  return found;
}

function findCitations(file: string): string[] {
  const relative = path.relative(REPO, file);
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .flatMap((line, i) => (CITATION.test(line) ? [`${relative}:${i + 1}: ${line.trim().slice(0, 160)}`] : []));
}

describe("document citations", () => {
  it("recognises the citation forms and spares ordinary words", () => {
    const cited = [
      "(SPEC 5)",
      "SPEC 1/4",
      "DESIGN 7",
      "(issue 7)",
      "Issue 4's target",
      "contracts 3-6",
      "the money issue",
      "the issue's figure",
      "later issues",
      "decision 0011",
    ];
    const ordinary = [
      "issues[0]",
      "issueCsrfCookie(app)",
      "issued.state",
      "the issues as a list",
      "a contract with the provider",
      "docs/decisions/0011-antd-stylesheet.md",
      "spec files",
    ];
    expect(cited.filter((s) => !CITATION.test(s))).toEqual([]);
    expect(ordinary.filter((s) => CITATION.test(s))).toEqual([]);
  });

  it("finds none in the repository's code, tests and schema", () => {
    const files = [
      ...SCANNED_DIRS.flatMap((d) => listScannedFiles(path.join(REPO, d))),
      ...SCANNED_ROOT_FILES.map((f) => path.join(REPO, f)).filter((f) => fs.existsSync(f)),
    ];
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.filter((f) => path.relative(REPO, f) !== SELF).flatMap(findCitations);
    expect(offenders, "state the rule, or point at a file in docs/").toEqual([]);
  });
});
