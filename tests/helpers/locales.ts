import fs from "node:fs";
import path from "node:path";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function readLocale(lng: string, ns: string): any {
  return JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../public/locales", lng, `${ns}.json`), "utf8"));
}
