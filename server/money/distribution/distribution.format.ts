// Masking other people's names on distribution pages: a sharer sees that someone bought or joined,
// never who exactly (first and last character kept, the rest starred).
export function maskName(name: string | null | undefined): string {
  const chars = [...(name ?? "").trim()];
  if (chars.length === 0) return "***";
  if (chars.length === 1) return "*";
  if (chars.length === 2) return `${chars[0]}*`;
  return `${chars[0]}${"*".repeat(Math.min(chars.length - 2, 3))}${chars[chars.length - 1]}`;
}
