// `npm test`: the type check, ESLint and the format check, then unit, integration and end-to-end
// tests, in that order. End-to-end tests need a Chromium (/usr/bin/chromium or CHROMIUM_PATH);
// without one they are skipped with one loud line, unless E2E_REQUIRED=1, when that is a failure.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const vitest = path.join(root, "node_modules/vitest/vitest.mjs");
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const projects = ["unit", "integration"];

if (fs.existsSync(chromium)) projects.push("e2e");
else if (process.env.E2E_REQUIRED === "1") {
  console.error(`\nE2E_REQUIRED=1 but no Chromium at ${chromium}: install it (apt-get install -y chromium) or set CHROMIUM_PATH.\n`);
  process.exit(1);
} else {
  console.warn(`\n!!!!! END-TO-END TESTS SKIPPED: no Chromium at ${chromium} (apt-get install -y chromium, or set CHROMIUM_PATH) !!!!!\n`);
}

const only = process.argv.slice(2);
let failed = false;
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
if (!only.length) {
  // The checks that need no database first, all three at once (each prints when it is done): types,
  // the house rules (ESLint), the formatting.
  const checks = [
    ["typecheck", "node_modules/typescript/bin/tsc", ["--noEmit"]],
    ["lint", "node_modules/eslint/bin/eslint.js", ["."]],
    ["format", "node_modules/prettier/bin/prettier.cjs", ["--check", "--log-level", "warn", "."]],
  ];
  const results = await Promise.all(checks.map(([name, bin, args]) => runCaptured(name, path.join(root, bin), args)));
  for (const { name, status, output } of results) {
    console.log(`\n=== ${name} ===\n${output}`);
    if (status !== 0) {
      failed = true;
      failures.push(`${name}: see its output above`);
    }
  }
}
for (const project of only.length ? only : projects) {
  console.log(`\n=== ${project} tests ===`);
  const report = path.join(os.tmpdir(), `zelin-vitest-${process.pid}-${project}.json`);
  const r = spawnSync(process.execPath, [vitest, "run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" },
  });
  if (r.status !== 0) failed = true;
  try {
    const json = JSON.parse(fs.readFileSync(report, "utf8"));
    totals.passed += json.numPassedTests;
    totals.failed += json.numFailedTests;
    totals.skipped += json.numPendingTests + json.numTodoTests;
    for (const file of json.testResults ?? []) {
      const failedTests = (file.assertionResults ?? []).filter((t) => t.status === "failed");
      for (const t of failedTests) failures.push(`${project}: ${path.relative(root, file.name)} > ${t.fullName}\n    ${firstLine(t.failureMessages?.[0])}`);
      // A file that failed to load has no failed assertion but a message of its own.
      if (!failedTests.length && file.status === "failed") failures.push(`${project}: ${path.relative(root, file.name)}\n    ${firstLine(file.message)}`);
    }
    fs.rmSync(report, { force: true });
  } catch {
    failed = true;
  }
}
// The failures again, then one plain closing line, for whoever reads only the end of the log.
if (failures.length) console.log(`\nFailed:\n${failures.map((f) => `  ${f}`).join("\n")}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`);
process.exit(failed ? 1 : 0);

/** Runs a check with its output kept, so that three at once do not interleave their lines. */
function runCaptured(name, bin, args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (status) => resolve({ name, status, output }));
  });
}

function firstLine(message) {
  return (
    String(message ?? "")
      .split("\n")
      .find((l) => l.trim())
      ?.trim()
      .slice(0, 300) ?? ""
  );
}
