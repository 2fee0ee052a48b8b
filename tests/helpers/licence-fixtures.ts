import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateKeyPair, signLicence } from "../../server/platform/licence";
import { todayYmd } from "../../server/platform/licence.schema";

function shiftYmd(ymd: number, days: number) {
  const d = new Date(Date.UTC(Math.floor(ymd / 10000), Math.floor((ymd % 10000) / 100) - 1, ymd % 100) + days * 86_400_000);
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}

/** Writes signed licences that expire soon, have expired, and one with a forged signature. */
export function writeLicenceFixtures(timeZone = "Asia/Shanghai") {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "zelin-licence-"));
  const keys = generateKeyPair();
  const today = todayYmd(new Date(), timeZone);
  const write = (name: string, start: number, end: number) => {
    const file = path.join(dir, `${name}.json`);
    fs.writeFileSync(
      file,
      JSON.stringify(signLicence({ licensee: "Test Co", start_time: start, end_time: end, contact_phone: "021-5555-0101" }, keys.privateKeyPem)),
    );
    return file;
  };
  const valid = write("valid", shiftYmd(today, -100), shiftYmd(today, 300));
  const expiring = write("expiring", shiftYmd(today, -300), shiftYmd(today, 10));
  const expired = write("expired", shiftYmd(today, -400), shiftYmd(today, -1));
  const forged = path.join(dir, "forged.json");
  const forgedBody = JSON.parse(fs.readFileSync(expiring, "utf8"));
  forgedBody.payload.end_time = shiftYmd(today, 3000);
  fs.writeFileSync(forged, JSON.stringify(forgedBody));
  return { dir, publicKeyPem: keys.publicKeyPem, privateKeyPem: keys.privateKeyPem, today, files: { valid, expiring, expired, forged }, shiftYmd };
}
