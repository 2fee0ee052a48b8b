// Query rows as a GFM table: what the chat and the "try a query" box show, and what the model reads.

function cell(value: unknown) {
  if (value === null || value === undefined) return "NULL";
  return String(value).replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

export function toMarkdownTable(columns: string[], rows: unknown[][]): string {
  if (!columns.length) return "";
  const head = `| ${columns.map(cell).join(" | ")} |`;
  const rule = `| ${columns.map(() => "---").join(" | ")} |`;
  return [head, rule, ...rows.map((r) => `| ${columns.map((_, i) => cell(r[i])).join(" | ")} |`)].join("\n");
}
