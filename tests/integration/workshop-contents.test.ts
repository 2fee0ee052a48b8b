// A workshop node's content from a file: a docx's text, a spreadsheet's cells sheet by sheet, a
// plain text; refused with a localized reason when it is another kind of file or holds more than a
// workshop's contents may. And a draft that names a picture agent in a node before the last is
// refused as the editor refuses it.
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { saveDefinition } from "../../server/workshops/workshops.service";
import { ZDefinition } from "../../server/workshops/workshops.schema";
import { makeUser, useChatHarness } from "../helpers/chat-runtime";
import { makePng } from "../helpers/png";
import { makeDocx } from "../helpers/sample-files";
import { makeRoleAgent, makeWorkshopOf } from "../helpers/workshops";

const h = useChatHarness();

async function upload(cookie: string, bytes: Buffer, filename: string, lang = "en") {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)]), filename);
  const res = await fetch(`${h.api.base}/api/v1/workshop/contents`, {
    method: "POST",
    headers: { cookie: `${cookie}; zl_csrf=test-csrf-token; lang=${lang}`, "x-csrf-token": "test-csrf-token" },
    body: form,
  });
  return (await res.json()) as { status: number; description: string; data: { title: string; text: string } };
}

describe("a node's content from a file", () => {
  it("reads a docx, a spreadsheet and a text file, and refuses other files and too much text", async () => {
    const user = await makeUser(h.api.base);
    const cookie = `zl_session=${user.browser.cookies.get("zl_session")}`;
    const docx = await upload(cookie, makeDocx("The brief: launch in May."), "Launch brief.docx");
    expect(docx.data).toEqual({ title: "Launch brief", text: expect.stringContaining("The brief: launch in May.") });

    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet("Prices").addRows([
      ["Item", "Price"],
      ["Tea", 12],
    ]);
    workbook.addWorksheet("Empty");
    const xlsx = await upload(cookie, Buffer.from(await workbook.xlsx.writeBuffer()), "prices.xlsx");
    expect(xlsx.data).toEqual({ title: "prices", text: "Prices\nItem\tPrice\nTea\t12" });

    expect((await upload(cookie, Buffer.from("营业时间 9-18"), "hours.txt")).data.text).toBe("营业时间 9-18");

    const png = await upload(cookie, makePng(400, 400), "photo.png", "zh_hans");
    expect(png.status).toBe(421905);
    expect(png.description).toBe("节点内容仅支持 TXT、DOCX、PDF 或 XLSX 文件");
    const long = await upload(cookie, Buffer.from("字".repeat(30_001)), "long.txt");
    expect(long.status).toBe(421907);
    expect(long.description).toContain("30001");
  });
});

describe("picture and video agents", () => {
  it("speak only in the last node with agents: the server refuses the draft as the editor does", async () => {
    const owner = await makeUser(h.api.base);
    const writer = await makeRoleAgent(h, owner, () => "words");
    const painter = await makeRoleAgent(h, owner, () => "a picture");
    const { getDb } = await import("../../server/db/client");
    await getDb().model.update({ where: { key: painter.modelKey }, data: { kind: "image" } });
    const roles = [
      { name: "Writer", type: "agent" as const, agent_id: writer.agentId },
      { name: "Painter", type: "agent" as const, agent_id: painter.agentId },
    ];
    const node = (name: string, who: string[]) => ({ name, speech_mode: "sequential" as const, roles: who, max_rounds: 2, max_cycles: 1 });
    const ws = await makeWorkshopOf(owner, { roles, nodes: [node("Draft", ["Writer"]), node("Picture", ["Painter"])] });
    const refused = saveDefinition(owner.actor, {
      id: ws,
      revision: 2,
      definition: ZDefinition.parse({ roles, nodes: [node("Picture", ["Painter"]), node("Draft", ["Writer"])] }),
    });
    await expect(refused).rejects.toMatchObject({
      issues: [{ path: ["definition", "nodes", 0, "roles", 0], message: "workshops:validation.media_last_node" }],
    });
  });
});
