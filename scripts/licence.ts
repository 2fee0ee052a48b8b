// Signs licences for operators and tests.
//   npm run licence -- keygen --out keys/            writes licence-private.pem and licence-public.pem
//   npm run licence -- sign --key keys/licence-private.pem --licensee "ACME" --start 20260101 --end 20271231 [--phone 400-...] [--out licence.json]
//   npm run licence -- verify --pub keys/licence-public.pem --file licence.json
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { generateKeyPair, parsePublicKey, signLicence, verifyLicence } from "../server/platform/licence";
import { ZLicencePayload } from "../server/platform/licence.schema";

const [command, ...rest] = process.argv.slice(2);
const { values } = parseArgs({
  args: rest,
  options: {
    out: { type: "string" },
    key: { type: "string" },
    pub: { type: "string" },
    file: { type: "string" },
    licensee: { type: "string" },
    start: { type: "string" },
    end: { type: "string" },
    phone: { type: "string" },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

if (command === "keygen") {
  const dir = values.out ?? ".";
  fs.mkdirSync(dir, { recursive: true });
  const { publicKeyPem, privateKeyPem } = generateKeyPair();
  fs.writeFileSync(path.join(dir, "licence-private.pem"), privateKeyPem, { mode: 0o600 });
  fs.writeFileSync(path.join(dir, "licence-public.pem"), publicKeyPem);
  console.log(
    `wrote ${path.join(dir, "licence-private.pem")} (keep it secret) and ${path.join(dir, "licence-public.pem")} (set LICENCE_PUBLIC_KEY to its contents)`,
  );
} else if (command === "sign") {
  if (!values.key) fail("sign needs --key <private key file>");
  const parsed = ZLicencePayload.safeParse({
    licensee: values.licensee,
    start_time: Number(values.start),
    end_time: Number(values.end),
    contact_phone: values.phone,
    issued_at: new Date().toISOString(),
  });
  if (!parsed.success) fail(`cannot sign: ${parsed.error.issues.map((i) => `${i.path.join(".") || "licence"}: ${i.message}`).join("; ")}`);
  const text = JSON.stringify(signLicence(parsed.data, fs.readFileSync(values.key, "utf8")), null, 2) + "\n";
  if (values.out) fs.writeFileSync(values.out, text);
  else process.stdout.write(text);
} else if (command === "verify") {
  if (!values.pub || !values.file) fail("verify needs --pub <public key file> and --file <licence file>");
  const result = verifyLicence(fs.readFileSync(values.file, "utf8"), parsePublicKey(fs.readFileSync(values.pub, "utf8")));
  if (!result.ok) fail(`invalid: ${result.reason}`);
  console.log(`valid: ${result.payload.licensee}, ${result.payload.start_time} to ${result.payload.end_time}`);
} else {
  fail("usage: npm run licence -- keygen|sign|verify (see scripts/licence.ts)");
}
