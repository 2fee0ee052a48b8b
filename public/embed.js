/* Zelin: a floating chat button for other websites (the share panel's script snippet).
   <script src="https://<zelin>/embed.js" data-app="<app id>" data-touser="<sharer id>" data-title="<name>" defer></script>
   The button opens the app's H5 chat (/mobi/dialogue?app=...&embed=1) in a panel over the page.
   Everything is built with DOM calls (no innerHTML), and query values are encoded. */
(function () {
  var script = document.currentScript;
  if (!script || !script.getAttribute("data-app")) return;
  var origin = new URL(script.src, window.location.href).origin;
  var app = script.getAttribute("data-app");
  var touser = script.getAttribute("data-touser");
  var title = script.getAttribute("data-title") || "Chat";
  var query = "app=" + encodeURIComponent(app) + "&embed=1" + (touser ? "&touser=" + encodeURIComponent(touser) : "");
  var src = origin + "/mobi/dialogue?" + query;

  var button = document.createElement("button");
  button.type = "button";
  button.setAttribute("aria-label", title);
  button.title = title;
  button.setAttribute("data-zelin-embed", "button");
  button.style.cssText =
    "position:fixed;right:20px;bottom:20px;z-index:2147483646;width:56px;height:56px;border-radius:50%;border:0;" +
    "background:#1677ff;color:#fff;box-shadow:0 6px 16px rgba(0,0,0,.2);cursor:pointer;font:600 22px/56px sans-serif;padding:0";
  button.appendChild(document.createTextNode("\uD83D\uDCAC"));

  var panel = null;
  function open() {
    if (panel) {
      panel.style.display = panel.style.display === "none" ? "block" : "none";
      return;
    }
    panel = document.createElement("div");
    panel.setAttribute("data-zelin-embed", "panel");
    panel.style.cssText =
      "position:fixed;right:20px;bottom:88px;z-index:2147483646;width:380px;height:600px;max-width:calc(100vw - 40px);" +
      "max-height:calc(100vh - 120px);border-radius:12px;overflow:hidden;box-shadow:0 8px 28px rgba(0,0,0,.25);background:#fff";
    var frame = document.createElement("iframe");
    frame.src = src;
    frame.title = title;
    frame.setAttribute("allow", "microphone; clipboard-write");
    frame.style.cssText = "width:100%;height:100%;border:0";
    panel.appendChild(frame);
    document.body.appendChild(panel);
  }
  button.addEventListener("click", open);
  function mount() {
    document.body.appendChild(button);
  }
  if (document.body) mount();
  else document.addEventListener("DOMContentLoaded", mount);
})();
