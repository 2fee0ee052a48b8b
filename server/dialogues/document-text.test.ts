// Reading a document's text in a worker thread: docx and pdf are read there (off the caller's event
// loop), the archive is checked there too (a bomb stored before uploads were inspected, read by the
// training job, is still refused), and a reading past its time limit is stopped.
import { afterEach, describe, expect, it } from "vitest";
import { makeDocxBomb } from "../../tests/helpers/bad-files";
import { makeDocx } from "../../tests/helpers/sample-files";
import { extractDocumentText, READ_LIMITS } from "./document-text";

const MB = 1024 * 1024;
const timeMs = READ_LIMITS.timeMs;
afterEach(() => {
  READ_LIMITS.timeMs = timeMs;
});

describe("extractDocumentText", () => {
  it("reads a docx in its thread, and plain text at once", async () => {
    expect(await extractDocumentText(makeDocx("Quarterly revenue grew by 12 percent."))).toEqual({
      kind: "docx",
      text: "Quarterly revenue grew by 12 percent.",
    });
    expect(await extractDocumentText(Buffer.from("第一行\r\n\r\n\r\n\r\n第二行  \n"))).toEqual({ kind: "txt", text: "第一行\n\n第二行" });
  });

  it("refuses a docx that lies about its size before mammoth unpacks it", async () => {
    const started = performance.now();
    await expect(extractDocumentText(makeDocxBomb(100 * MB, 2048))).rejects.toMatchObject({ code: "file_unpacks_too_large" });
    await expect(extractDocumentText(makeDocxBomb(100 * MB))).rejects.toMatchObject({ code: "file_unpacks_too_large" });
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("stops a reading that runs past its time", async () => {
    READ_LIMITS.timeMs = 1;
    await expect(extractDocumentText(makeDocx("slow enough"))).rejects.toMatchObject({ code: "document_too_complex" });
  });
});
