// Every user-facing string is a key in all four languages, and every refusal in the
// error catalogue has its message.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LANGUAGES, NAMESPACES } from "../../app/i18n/config";
import { ERROR_CODES } from "../../server/errors/codes";

const ROOT = path.resolve(import.meta.dirname, "../../public/locales");
const flatten = (o: Record<string, unknown>, p = ""): string[] =>
  Object.entries(o).flatMap(([k, v]) => (v && typeof v === "object" ? flatten(v as Record<string, unknown>, `${p}${k}.`) : [`${p}${k}`]));
const read = (lng: string, ns: string) => JSON.parse(fs.readFileSync(path.join(ROOT, lng, `${ns}.json`), "utf8"));

describe("locales", () => {
  it("has exactly the namespaces of the config, in every language", () => {
    for (const lng of LANGUAGES) {
      const files = fs
        .readdirSync(path.join(ROOT, lng))
        .filter((f) => f.endsWith(".json"))
        .map((f) => f.replace(/\.json$/, ""))
        .sort();
      expect(files, lng).toEqual([...NAMESPACES].sort());
    }
  });

  for (const ns of NAMESPACES) {
    it(`carries the same keys in all four languages: ${ns}`, () => {
      const reference = flatten(read("zh_hans", ns)).sort();
      for (const lng of LANGUAGES) expect(flatten(read(lng, ns)).sort(), `${lng}/${ns}`).toEqual(reference);
    });
  }

  it("has no empty messages", () => {
    for (const lng of LANGUAGES)
      for (const ns of NAMESPACES) {
        const walk = (o: Record<string, unknown>, p: string) => {
          for (const [k, v] of Object.entries(o)) {
            if (v && typeof v === "object") walk(v as Record<string, unknown>, `${p}.${k}`);
            else expect(String(v).trim(), `${lng}/${ns}${p}.${k}`).not.toBe("");
          }
        };
        walk(read(lng, ns), "");
      }
  });

  it("has a message for every error code", () => {
    for (const lng of LANGUAGES) {
      const errors = read(lng, "errors");
      for (const code of Object.keys(ERROR_CODES)) expect(errors[code], `${lng}: ${code}`).toBeTruthy();
    }
  });

  it("has a message for every validation key the code names", () => {
    // Schemas and services refer to messages as "validation.x"; a key missing here would reach
    // the user as the raw key. Scan the sources rather than trust a hand-kept list.
    const roots = ["server", "app"].map((d) => path.resolve(import.meta.dirname, "../..", d));
    const used = new Set<string>();
    const scan = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== "generated") scan(full);
        } else if (/\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
          for (const m of fs.readFileSync(full, "utf8").matchAll(/["'`]validation\.([a-z_]+)["'`]/g)) used.add(m[1]);
        }
      }
    };
    roots.forEach(scan);
    expect(used.size).toBeGreaterThan(20);
    for (const lng of LANGUAGES) {
      const validation = read(lng, "errors").validation as Record<string, string>;
      for (const key of used) expect(validation[key], `${lng}: validation.${key}`).toBeTruthy();
    }
  });
});
