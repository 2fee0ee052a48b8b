// Every tRPC procedure declares its input and its output, so the browser's types come from a
// declared contract and an answer that does not match it is caught on the server.
import { describe, expect, it } from "vitest";
import { appRouter } from "../../server/trpc/app-router";

type TProcedureDef = { type: string; inputs: unknown[]; output?: unknown };
const procedures = Object.entries((appRouter as unknown as { _def: { procedures: Record<string, { _def: TProcedureDef }> } })._def.procedures);

describe("tRPC procedures", () => {
  it("are many (the router was read)", () => {
    expect(procedures.length).toBeGreaterThan(100);
  });

  it("each declare an output schema", () => {
    expect(procedures.filter(([, p]) => !p._def.output).map(([name]) => name)).toEqual([]);
  });
});

describe("services", () => {
  it("take typed inputs: an exported service function never takes a request's raw input to parse again (parsers named parse* excepted)", async () => {
    const { readdirSync, readFileSync } = await import("node:fs");
    const path = await import("node:path");
    const root = path.resolve(import.meta.dirname, "../../server");
    const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".service.ts"));
    const offenders: string[] = [];
    for (const file of files) {
      const text = readFileSync(path.join(root, file), "utf8");
      for (const m of text.matchAll(/export (?:async )?function (\w+)\(([^)]*)\)/g)) {
        if (/\b(raw|input|body|query|params|orderId|id)\??: unknown\b/.test(m[2]) && !m[1].startsWith("parse")) offenders.push(`server/${file}: ${m[1]}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
