// Copies text to the clipboard: the Clipboard API where the browser allows it, else a hidden
// textarea and the copy command (plain-HTTP intranet installs have no Clipboard API). True when
// the text was copied.
export async function copyText(text: string) {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Denied (no focus, an insecure origin): fall back to the selection below.
    }
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  return ok;
}
