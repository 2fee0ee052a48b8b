// Real PNG pictures of any size for upload tests (grey, 8 bits).
import { writePng } from "../../server/lib/png-file";

export function makePng(width: number, height: number, shade = 128) {
  const row = Buffer.alloc(width + 1, shade);
  row[0] = 0; // no filter
  const rows = Buffer.concat(Array.from({ length: height }, (_, y) => (y % 2 ? Buffer.alloc(width + 1, 255 - shade).fill(0, 0, 1) : row)));
  return writePng(width, height, 0, rows);
}

/** A small but well-formed PDF. */
export function makePdf() {
  return Buffer.from(
    "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
  );
}
