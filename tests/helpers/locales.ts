import fs from "node:fs";
import path from "node:path";

export function readLocale(lng: string, ns: string): any {
  return JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../public/locales", lng, `${ns}.json`), "utf8"));
}
