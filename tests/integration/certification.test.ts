// Developer certification: the ID checksum, one pending application at a time,
// the ID number sealed at rest, review by platform administrators only, and private files.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isValidIdNumber, ZSubmitCertificationInput } from "../../server/accounts/certification.schema";
import { submitCertification } from "../../server/accounts/certification.service";
import { startSession } from "../../server/auth/session.service";
import { getDb } from "../../server/db/client";
import { openSecret } from "../../server/lib/secret-box";
import { Browser } from "../helpers/api-client";
import { useApiWithTempFiles } from "../helpers/temp-files-api";
import { makePdf, makePng } from "../helpers/png";

const run = crypto.randomBytes(3).toString("hex");
const server = useApiWithTempFiles("zl-cert-");
const dataDir = server.dataDir;
const VALID_ID = "11010519491231002X";
let ipCounter = 0;

const storedFiles = (accountId: string) => {
  const dir = path.join(dataDir, "files", "certifications", accountId);
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => !f.endsWith(".meta.json")) : [];
};

async function signUp(prefix: string) {
  const browser = new Browser(server.base, `10.8.0.${++ipCounter}`);
  const res = await browser.call("/api/v1/auth/register", { body: { account: `${prefix}${run}`, password: "secret123", confirm: "secret123", agreed: true } });
  expect(res.body.status).toBe(200);
  return { browser, id: res.body.data.account.id as string };
}

async function makeAdmin() {
  const admin = await getDb().account.create({
    data: { account: `adm${run}${++ipCounter}`, nickname: "Admin", roles: ["platform_admin"] },
    select: { id: true },
  });
  const browser = new Browser(server.base, `10.8.1.${ipCounter}`);
  browser.cookies.set("zl_session", (await startSession(admin.id)).token);
  return { browser, id: admin.id };
}

function application(overrides: { fields?: Record<string, string>; files?: Record<string, { bytes: Uint8Array; filename?: string; type?: string }> } = {}) {
  return {
    fields: { real_name: "张三", id_number: VALID_ID.toLowerCase(), introduction: "Ten years of building chat agents for retail.", ...overrides.fields },
    files: {
      avatar_photo: { bytes: makePng(400, 500), filename: "me.png", type: "image/png" },
      id_front: { bytes: makePng(800, 500, 30), filename: "front.png", type: "image/png" },
      id_back: { bytes: makePng(800, 500, 90), filename: "back.png", type: "image/png" },
      certificate: { bytes: makePdf(), filename: "cert.pdf", type: "application/pdf" },
      ...overrides.files,
    },
  };
}

describe("ID numbers (GB 11643-1999)", () => {
  it("accepts a valid number, in either case of the check character", () => {
    expect(isValidIdNumber(VALID_ID)).toBe(true);
    expect(isValidIdNumber("11010519491231002x")).toBe(true);
    expect(isValidIdNumber("44030419900307123X")).toBe(true);
  });

  it("refuses a wrong check digit, a date that does not exist, a future date and bad shapes", () => {
    expect(isValidIdNumber("110105194912310021")).toBe(false);
    expect(isValidIdNumber("110105194902300020")).toBe(false); // 30 February, with a correct checksum
    expect(isValidIdNumber("110105209912310029", new Date("2026-01-01"))).toBe(false); // born in 2099
    expect(isValidIdNumber("11010519491231002")).toBe(false);
    expect(isValidIdNumber("1101051949123100XX")).toBe(false);
    const parsed = ZSubmitCertificationInput.safeParse({ real_name: "张三", id_number: "110105194912310021", introduction: "0123456789" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0].message).toBe("validation.id_number");
  });
});

describe("applying", () => {
  it("stores a pending application with the ID number sealed, and refuses a second one", async () => {
    const { browser, id } = await signUp("ca_");
    expect((await browser.call("/api/v1/account/certification")).body.data).toBeNull();

    const res = await browser.upload("/api/v1/account/certification", application());
    expect(res.body.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "pending", real_name: "张三", id_number_hint: "002X", reject_reason: null });

    const row = await getDb().certification.findFirstOrThrow({ where: { accountId: id } });
    expect(JSON.stringify(row)).not.toContain(VALID_ID);
    expect(JSON.stringify(row).toLowerCase()).not.toContain(VALID_ID.toLowerCase());
    expect(openSecret(row.idNumberEncrypted)).toBe(VALID_ID);
    expect(row.idNumberHint).toBe("002X");
    expect(row.avatarPhotoUrl).toMatch(new RegExp(`^/api/v1/files/certifications/${id}/.+\\.png$`));
    expect(row.certificateUrl).toMatch(/\.pdf$/);
    expect(storedFiles(id)).toHaveLength(4);

    const own = (await browser.call("/api/v1/account/certification")).body.data;
    expect(own).toEqual({
      id: row.id,
      status: "pending",
      reject_reason: null,
      real_name: "张三",
      id_number_hint: "002X",
      created_at: expect.any(String),
      reviewed_at: null,
    });
    expect(JSON.stringify(own)).not.toContain("1949");

    const again = await browser.upload("/api/v1/account/certification", application(), { lang: "en" });
    expect(again.body).toMatchObject({ status: 420023, description: "Please do not repeat this action" });
    expect(storedFiles(id)).toHaveLength(4);
    expect(await getDb().certification.count({ where: { accountId: id } })).toBe(1);
  });

  it("refuses bad fields and bad files without writing anything", async () => {
    const { browser, id } = await signUp("cb_");
    const badId = await browser.upload("/api/v1/account/certification", application({ fields: { id_number: "110105194912310021" } }), { lang: "en" });
    expect(badId.body).toMatchObject({ status: 400001, description: "This ID number is not valid" });
    expect((await browser.upload("/api/v1/account/certification", application({ fields: { real_name: "张" } }), { lang: "en" })).body.description).toBe(
      "A real name has 2 to 30 characters",
    );
    expect(
      (await browser.upload("/api/v1/account/certification", application({ fields: { introduction: "too short" } }), { lang: "en" })).body.description,
    ).toBe("A self-introduction has 10 to 500 characters");
    const small = await browser.upload("/api/v1/account/certification", application({ files: { id_back: { bytes: makePng(200, 200) } } }));
    expect(small.body).toMatchObject({ status: 420202, data: { field: "id_back" } });
    const notPicture = await browser.upload("/api/v1/account/certification", application({ files: { id_front: { bytes: makePdf(), filename: "front.png" } } }));
    expect(notPicture.body).toMatchObject({ status: 420201, data: { field: "id_front" } });
    const badCertificate = await browser.upload(
      "/api/v1/account/certification",
      application({ files: { certificate: { bytes: Buffer.from("PK\x03\x04 a zip"), filename: "cert.pdf" } } }),
    );
    expect(badCertificate.body).toMatchObject({ status: 420203, data: { field: "certificate" } });
    const missing = application();
    delete (missing.files as Record<string, unknown>).id_front;
    expect((await browser.upload("/api/v1/account/certification", missing)).body).toMatchObject({ status: 420018, data: { field: "id_front" } });
    const tooBig = await browser.upload(
      "/api/v1/account/certification",
      application({ files: { certificate: { bytes: Buffer.concat([makePdf(), Buffer.alloc(10 * 1024 * 1024)]) } } }),
    );
    expect(tooBig.body.status).toBe(420017);

    expect(storedFiles(id)).toEqual([]);
    expect(await getDb().certification.count({ where: { accountId: id } })).toBe(0);

    // The certificate is optional.
    const noCertificate = application();
    delete (noCertificate.files as Record<string, unknown>).certificate;
    expect((await browser.upload("/api/v1/account/certification", noCertificate)).body.status).toBe(200);
    expect(storedFiles(id)).toHaveLength(3);
  });

  it("deletes the files it stored when the transaction fails", async () => {
    const ghost = `ghost${run}`;
    const upload = application();
    const err = await submitCertification(
      { id: ghost, roles: [], enterpriseId: null },
      { fields: upload.fields, files: Object.fromEntries(Object.entries(upload.files).map(([k, v]) => [k, { bytes: Buffer.from(v.bytes) }])) },
    ).then(
      () => null,
      (e) => e,
    );
    expect(err).toBeTruthy();
    expect(String(err.code ?? err.message)).toMatch(/P2003|foreign key/i);
    // The files were written (their folder exists), then deleted again.
    expect(fs.existsSync(path.join(dataDir, "files", "certifications", ghost))).toBe(true);
    expect(storedFiles(ghost)).toEqual([]);
    expect(fs.readdirSync(path.join(dataDir, "files", "certifications", ghost))).toEqual([]);
    expect(await getDb().certification.count({ where: { accountId: ghost } })).toBe(0);
  });
});

describe("review", () => {
  it("only platform administrators list and review", async () => {
    const { browser } = await signUp("cc_");
    await browser.upload("/api/v1/account/certification", application());
    const own = (await browser.call("/api/v1/account/certification")).body.data;
    const other = await signUp("cd_");
    expect((await other.browser.call("/api/v1/admin/certifications?status=pending")).body.status).toBe(403001);
    expect((await other.browser.call(`/api/v1/admin/certifications/${own.id}/approve`, { body: {} })).body.status).toBe(403001);
    expect((await browser.call(`/api/v1/admin/certifications/${own.id}/approve`, { body: {} })).body.status).toBe(403001);
    expect((await browser.call(`/api/v1/admin/certifications/${own.id}/reject`, { body: { reason: "no" } })).body.status).toBe(403001);
    expect((await new Browser(server.base).call("/api/v1/admin/certifications")).body.status).toBe(110003);
    expect((await browser.call("/api/v1/account/certification")).body.data.status).toBe("pending");
  });

  it("approval makes the applicant a certified developer; an approved account cannot apply again", async () => {
    const applicant = await signUp("ce_");
    await applicant.browser.upload("/api/v1/account/certification", application());
    const { browser: admin, id: adminId } = await makeAdmin();

    const list = await admin.call("/api/v1/admin/certifications?status=pending");
    expect(list.body.status).toBe(200);
    const item = list.body.data.find((i: { account: string }) => i.account === `ce_${run}`);
    expect(item).toMatchObject({
      status: "pending",
      real_name: "张三",
      id_number_hint: "002X",
      introduction: expect.any(String),
      avatar_photo_url: expect.stringMatching(/^\/api\/v1\/files\/certifications\//),
    });
    expect(JSON.stringify(list.body.data)).not.toContain("id_number_encrypted");
    expect(JSON.stringify(item)).not.toContain(VALID_ID);

    expect((await applicant.browser.call("/api/v1/account/me")).body.data.roles).not.toContain("enterprise_developer");
    expect((await admin.call(`/api/v1/admin/certifications/${item.id}/approve`, { body: {} })).body.data).toMatchObject({ status: "approved" });
    expect((await applicant.browser.call("/api/v1/account/me")).body.data.roles).toContain("enterprise_developer");
    const row = await getDb().certification.findUniqueOrThrow({ where: { id: item.id } });
    expect(row).toMatchObject({ status: "approved", reviewedById: adminId, reviewedAt: expect.any(Date) });

    expect((await admin.call(`/api/v1/admin/certifications/${item.id}/approve`, { body: {} })).body.status).toBe(420023);
    expect((await admin.call(`/api/v1/admin/certifications/${item.id}/reject`, { body: { reason: "late" } })).body.status).toBe(420023);
    expect((await admin.call("/api/v1/admin/certifications/nope/approve", { body: {} })).body.status).toBe(404001);
    expect((await applicant.browser.upload("/api/v1/account/certification", application())).body.status).toBe(420023);
    expect((await applicant.browser.call("/api/v1/account/certification")).body.data.status).toBe("approved");
  });

  it("rejection needs a reason, the applicant sees it and may apply again", async () => {
    const applicant = await signUp("cf_");
    await applicant.browser.upload("/api/v1/account/certification", application());
    const id = (await applicant.browser.call("/api/v1/account/certification")).body.data.id;
    const { browser: admin } = await makeAdmin();

    expect((await admin.call(`/api/v1/admin/certifications/${id}/reject`, { body: {}, lang: "en" })).body).toMatchObject({
      status: 400001,
      description: "This field is required",
    });
    expect((await admin.call(`/api/v1/admin/certifications/${id}/reject`, { body: { reason: " " }, lang: "en" })).body.description).toBe(
      "A reason has 1 to 200 characters",
    );
    expect((await admin.call(`/api/v1/admin/certifications/${id}/reject`, { body: { reason: "   " } })).body.status).toBe(400001);
    expect((await admin.call(`/api/v1/admin/certifications/${id}/reject`, { body: { reason: "x".repeat(201) } })).body.status).toBe(400001);
    expect((await admin.call(`/api/v1/admin/certifications/${id}/reject`, { body: { reason: "The ID photo is blurred" } })).body.data).toMatchObject({
      status: "rejected",
      reject_reason: "The ID photo is blurred",
    });

    expect((await applicant.browser.call("/api/v1/account/certification")).body.data).toMatchObject({
      status: "rejected",
      reject_reason: "The ID photo is blurred",
    });
    expect((await applicant.browser.call("/api/v1/account/me")).body.data.roles).not.toContain("enterprise_developer");
    expect((await admin.call("/api/v1/admin/certifications?status=rejected")).body.data.some((i: { id: string }) => i.id === id)).toBe(true);

    const again = await applicant.browser.upload("/api/v1/account/certification", application({ fields: { real_name: "张三丰" } }));
    expect(again.body.data).toMatchObject({ status: "pending", real_name: "张三丰", reject_reason: null });
    expect(again.body.data.id).not.toBe(id);
  });

  it("application files reach only their owner and platform administrators", async () => {
    const owner = await signUp("cg_");
    await owner.browser.upload("/api/v1/account/certification", application());
    const row = await getDb().certification.findFirstOrThrow({ where: { accountId: owner.id } });
    const other = await signUp("ch_");
    const { browser: admin } = await makeAdmin();

    const denied = await other.browser.call(row.idFrontUrl);
    expect(denied.http).toBe(404);
    expect(denied.body).toMatchObject({ status: 404001, data: null });
    expect((await new Browser(server.base).call(row.idFrontUrl)).body.status).toBe(110003);

    const sent = application().files.id_front.bytes;
    for (const reader of [owner.browser, admin]) {
      const got = await reader.fetchRaw(row.idFrontUrl);
      expect(got.http).toBe(200);
      expect(got.headers.get("content-type")).toBe("image/png");
      expect(got.headers.get("x-content-type-options")).toBe("nosniff");
      expect(got.headers.get("cache-control")).toMatch(/^private/);
      expect(Buffer.compare(got.bytes, Buffer.from(sent))).toBe(0);
    }
    const pdf = await admin.fetchRaw(row.certificateUrl!);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");

    // Not through the public route, and not by guessing keys.
    expect((await new Browser(server.base).fetchRaw(row.idFrontUrl.replace("/api/v1/files/", "/files/"))).http).toBe(404);
    expect((await owner.browser.call(`/api/v1/files/certifications/${owner.id}/unknown.png`)).body.status).toBe(404001);
    expect((await admin.call(`/api/v1/files/certifications/${owner.id}/..%2F..%2Favatars`)).body.status).toBe(404001);
  });
});
