// Share links, QR payloads and embed snippets. No server imports: the share panel and
// the poster editor build them in the browser, the tests on the server, from the same code.

/** The origin without a trailing slash, as links are built on it. */
const trimOrigin = (origin: string) => origin.replace(/\/+$/, "");

/** `${origin}/share?app=<id>&touser=<sharer>`: /share sends phones on to the H5 chat and credits the sharer. */
export function buildShareUrl(origin: string, appId: string, touser: string | null | undefined) {
  const query = new URLSearchParams({ app: appId });
  if (touser) query.set("touser", touser);
  return `${trimOrigin(origin)}/share?${query.toString()}`;
}

/** The H5 chat as a frame for other websites: no site chrome, and the sharer still credited. */
export function buildEmbedUrl(origin: string, appId: string, touser: string | null | undefined) {
  const query = new URLSearchParams({ app: appId, embed: "1" });
  if (touser) query.set("touser", touser);
  return `${trimOrigin(origin)}/mobi/dialogue?${query.toString()}`;
}

export const EMBED_SCRIPT_PATH = "/embed.js";

/** Text safe inside an HTML attribute value in double quotes (and in element content). */
export function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** An <iframe> of the H5 chat, to paste into a page. */
export function buildIframeSnippet(origin: string, app: { id: string; name: string }, touser: string | null | undefined) {
  const src = escapeHtml(buildEmbedUrl(origin, app.id, touser));
  return `<iframe src="${src}" title="${escapeHtml(app.name)}" width="400" height="640" style="border:0;border-radius:12px;max-width:100%" allow="microphone; clipboard-write"></iframe>`;
}

/** A floating button (public/embed.js) that opens the same chat in a panel over the page. */
export function buildScriptSnippet(origin: string, app: { id: string; name: string }, touser: string | null | undefined) {
  const attrs = [`src="${escapeHtml(`${trimOrigin(origin)}${EMBED_SCRIPT_PATH}`)}"`, `data-app="${escapeHtml(app.id)}"`];
  if (touser) attrs.push(`data-touser="${escapeHtml(touser)}"`);
  attrs.push(`data-title="${escapeHtml(app.name)}"`);
  return `<script ${attrs.join(" ")} defer></script>`;
}

/** The poster editor's page for an app, reached from the share panel. */
export const posterEditorPath = (appId: string) => `/posterEditor?app=${encodeURIComponent(appId)}`;
