// The Aliyun SMS provider against a loopback stand-in for Dysmsapi that checks each request's
// signature with its own implementation of the algorithm, and the code store around it on the real
// database: a message Aliyun refuses leaves no code and does not count against the phone.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { parseEnv, resetEnvCache } from "../../server/env";
import { isAppError } from "../../server/errors/app-error";
import { dropSingleton } from "../../server/lib/singleton";
import { AliyunSmsProvider, readAliyunSmsSettings } from "../../server/auth/sms/aliyun-sms-provider";
import { getSmsProvider, sendSmsCode, verifySmsCode } from "../../server/auth/sms";

const KEY_ID = "LTAI-test-key-id";
const SECRET = "test-secret-of-the-fake-dysmsapi";
const SIGN_NAME = "泽林AI";
const TEMPLATE = "SMS_100000001";
const SETTING_NAMES = [
  "SMS_PROVIDER",
  "ALIYUN_SMS_ACCESS_KEY_ID",
  "ALIYUN_SMS_ACCESS_KEY_SECRET",
  "ALIYUN_SMS_SIGN_NAME",
  "ALIYUN_SMS_TEMPLATE_CODE",
  "ALIYUN_SMS_REGION",
  "ALIYUN_SMS_ENDPOINT",
];
const saved = Object.fromEntries(SETTING_NAMES.map((k) => [k, process.env[k]]));

type TReceived = { query: URLSearchParams; signatureValid: boolean };
const received: TReceived[] = [];
let mode: "ok" | "limit" = "ok";
let server: http.Server;
let endpoint: string;

// A second, byte-by-byte implementation of Aliyun's rules, so the provider is not checked against itself.
function encodeIndependently(value: string) {
  let out = "";
  for (const byte of Buffer.from(value, "utf8")) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function computeSignature(query: URLSearchParams, secret: string) {
  const pairs = [...query.entries()].filter(([k]) => k !== "Signature").sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const canonical = pairs.map(([k, v]) => `${encodeIndependently(k)}=${encodeIndependently(v)}`).join("&");
  return crypto
    .createHmac("sha1", `${secret}&`)
    .update(`GET&%2F&${encodeIndependently(canonical)}`)
    .digest("base64");
}

function answer(res: http.ServerResponse, status: number, body: object) {
  res.writeHead(status, { "content-type": "application/json;charset=utf-8" });
  res.end(JSON.stringify(body));
}

function handleDysmsapi(req: http.IncomingMessage, res: http.ServerResponse) {
  const query = new URL(req.url ?? "/", "http://fake").searchParams;
  const signatureValid =
    req.method === "GET" &&
    query.get("AccessKeyId") === KEY_ID &&
    query.get("SignatureMethod") === "HMAC-SHA1" &&
    query.get("SignatureVersion") === "1.0" &&
    /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(query.get("Timestamp") ?? "") &&
    Boolean(query.get("SignatureNonce")) &&
    query.get("Signature") === computeSignature(query, SECRET);
  received.push({ query, signatureValid });
  const requestId = crypto.randomUUID();
  if (!signatureValid) {
    return answer(res, 400, {
      Code: "SignatureDoesNotMatch",
      Message: "Specified signature is not matched with our calculation.",
      RequestId: requestId,
      HostId: "dysmsapi.aliyuncs.com",
    });
  }
  if (query.get("Action") !== "SendSms" || query.get("Version") !== "2017-05-25" || query.get("Format") !== "JSON") {
    return answer(res, 400, { Code: "InvalidParameter", Message: "bad Action, Version or Format", RequestId: requestId });
  }
  if (mode === "limit") return answer(res, 200, { Code: "isv.BUSINESS_LIMIT_CONTROL", Message: "触发分钟级流控Permits:1", RequestId: requestId });
  answer(res, 200, { Code: "OK", Message: "OK", BizId: `${Date.now()}^0`, RequestId: requestId });
}

/** A loopback port nobody listens on any more: connecting is refused at once. */
async function findClosedEndpoint() {
  const closed = http.createServer();
  closed.listen(0, "127.0.0.1");
  await new Promise((r) => closed.once("listening", r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
  return `http://127.0.0.1:${port}`;
}

const uniquePhone = () => `139${String(crypto.randomInt(0, 100_000_000)).padStart(8, "0")}`;
const settings = (overrides: Partial<ReturnType<typeof readAliyunSmsSettings>> = {}) => ({
  accessKeyId: KEY_ID,
  accessKeySecret: SECRET,
  signName: SIGN_NAME,
  templateCode: TEMPLATE,
  region: "cn-hangzhou",
  endpoint,
  ...overrides,
});

function useAliyunSettings(env: Record<string, string | undefined>) {
  for (const k of SETTING_NAMES) delete process.env[k];
  Object.assign(process.env, Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)));
  resetEnvCache();
  dropSingleton("sms-provider:aliyun");
}

const fullSettings = () => ({
  SMS_PROVIDER: "aliyun",
  ALIYUN_SMS_ACCESS_KEY_ID: KEY_ID,
  ALIYUN_SMS_ACCESS_KEY_SECRET: SECRET,
  ALIYUN_SMS_SIGN_NAME: SIGN_NAME,
  ALIYUN_SMS_TEMPLATE_CODE: TEMPLATE,
  ALIYUN_SMS_ENDPOINT: endpoint,
});

beforeAll(async () => {
  server = http.createServer(handleDysmsapi);
  server.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  useAliyunSettings(saved);
  await new Promise((r) => server.close(r));
});
afterEach(() => {
  mode = "ok";
  received.length = 0;
});

describe("AliyunSmsProvider", () => {
  it("sends the phone and the code to SendSms with a signature Aliyun accepts", async () => {
    const phone = uniquePhone();
    await new AliyunSmsProvider(settings()).send({ phone, code: "123456", purpose: "login", text: "unused by templates" });
    expect(received).toHaveLength(1);
    const { query, signatureValid } = received[0];
    expect(signatureValid).toBe(true);
    expect(Object.fromEntries(query)).toMatchObject({
      PhoneNumbers: phone,
      TemplateParam: '{"code":"123456"}',
      SignName: SIGN_NAME,
      TemplateCode: TEMPLATE,
      RegionId: "cn-hangzhou",
      Action: "SendSms",
      Version: "2017-05-25",
      Format: "JSON",
    });
  });

  it("uses a fresh nonce for every request", async () => {
    const provider = new AliyunSmsProvider(settings());
    await provider.send({ phone: uniquePhone(), code: "111111", purpose: "login", text: "" });
    await provider.send({ phone: uniquePhone(), code: "222222", purpose: "login", text: "" });
    expect(received[0].query.get("SignatureNonce")).not.toBe(received[1].query.get("SignatureNonce"));
  });

  it("throws when Aliyun refuses the signature or the message", async () => {
    await expect(
      new AliyunSmsProvider(settings({ accessKeySecret: "not-the-secret" })).send({ phone: uniquePhone(), code: "123456", purpose: "login", text: "" }),
    ).rejects.toThrow(/SignatureDoesNotMatch/);
    expect(received[0].signatureValid).toBe(false);
    mode = "limit";
    await expect(new AliyunSmsProvider(settings()).send({ phone: uniquePhone(), code: "123456", purpose: "login", text: "" })).rejects.toThrow(
      /isv\.BUSINESS_LIMIT_CONTROL/,
    );
  });

  it("throws when Dysmsapi cannot be reached", async () => {
    await expect(
      new AliyunSmsProvider(settings({ endpoint: await findClosedEndpoint() })).send({ phone: uniquePhone(), code: "123456", purpose: "login", text: "" }),
    ).rejects.toThrow(/unreachable/);
  });
});

describe("settings", () => {
  it("names every missing setting in one sentence", () => {
    expect(() => readAliyunSmsSettings(parseEnv({ SMS_PROVIDER: "aliyun", ALIYUN_SMS_SIGN_NAME: SIGN_NAME }))).toThrowError(
      "SMS_PROVIDER=aliyun needs ALIYUN_SMS_ACCESS_KEY_ID, ALIYUN_SMS_ACCESS_KEY_SECRET, ALIYUN_SMS_TEMPLATE_CODE to be set; set them or use SMS_PROVIDER=dev.",
    );
  });

  it("has Aliyun's region and endpoint by default", () => {
    const read = readAliyunSmsSettings(
      parseEnv({ ALIYUN_SMS_ACCESS_KEY_ID: "a", ALIYUN_SMS_ACCESS_KEY_SECRET: "b", ALIYUN_SMS_SIGN_NAME: "c", ALIYUN_SMS_TEMPLATE_CODE: "d" }),
    );
    expect(read).toMatchObject({ region: "cn-hangzhou", endpoint: "https://dysmsapi.aliyuncs.com" });
  });

  it("SMS_PROVIDER=aliyun picks the Aliyun provider, and refuses to start it half-configured", () => {
    useAliyunSettings(fullSettings());
    expect(getSmsProvider().name).toBe("aliyun");
    useAliyunSettings({ ...fullSettings(), ALIYUN_SMS_ACCESS_KEY_SECRET: undefined });
    expect(() => getSmsProvider()).toThrowError(/ALIYUN_SMS_ACCESS_KEY_SECRET/);
  });
});

describe("sendSmsCode with SMS_PROVIDER=aliyun", () => {
  it("a refused message leaves no code and does not hold back the next send", async () => {
    useAliyunSettings(fullSettings());
    const phone = uniquePhone();
    mode = "limit";
    const failed = await sendSmsCode(phone, "register", "zh_hans").catch((err: unknown) => err);
    expect(isAppError(failed) && failed.code).toBe("system_busy");
    expect(await getDb().smsCode.count({ where: { phone } })).toBe(0);

    mode = "ok";
    await expect(sendSmsCode(phone, "register", "zh_hans")).resolves.toEqual({ retryAfterSeconds: 60 });
    expect(await getDb().smsCode.count({ where: { phone } })).toBe(1);
    const sent = received.at(-1)!;
    expect(sent.signatureValid).toBe(true);
    expect(sent.query.get("PhoneNumbers")).toBe(phone);
    // The code that reached the phone is the one the store accepts.
    const { code } = JSON.parse(sent.query.get("TemplateParam")!) as { code: string };
    expect(code).toMatch(/^\d{6}$/);
    await expect(verifySmsCode(phone, "register", code)).resolves.toBeUndefined();
  });

  it("an unreachable Dysmsapi leaves no code either", async () => {
    useAliyunSettings({ ...fullSettings(), ALIYUN_SMS_ENDPOINT: await findClosedEndpoint() });
    const phone = uniquePhone();
    const failed = await sendSmsCode(phone, "login", "en").catch((err: unknown) => err);
    expect(isAppError(failed) && failed.code).toBe("system_busy");
    expect(await getDb().smsCode.count({ where: { phone } })).toBe(0);
  });
});
