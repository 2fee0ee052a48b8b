// How a file's name is shown in lists: a base name over 18 characters shows its first 10,
// an ellipsis and the extension. Characters are counted as people see them (一 is one, so is 😀).
// The full name belongs in a title/tooltip beside it. Shared by every list that shows file names.
export const FILE_NAME_MAX_CHARS = 18;
export const FILE_NAME_HEAD_CHARS = 10;

/** The name split at its last dot: "report.final.docx" → { base: "report.final", ext: "docx" }. */
export function splitFileName(name: string): { base: string; ext: string } {
  const dot = name.lastIndexOf(".");
  // ".env" is a base name, not an extension; "name." has none either.
  if (dot <= 0 || dot === name.length - 1) return { base: name, ext: "" };
  return { base: name.slice(0, dot), ext: name.slice(dot + 1) };
}

export function displayFileName(name: string): string {
  const { base, ext } = splitFileName(name);
  const chars = Array.from(base);
  if (chars.length <= FILE_NAME_MAX_CHARS) return name;
  return `${chars.slice(0, FILE_NAME_HEAD_CHARS).join("")}…${ext ? `.${ext}` : ""}`;
}
