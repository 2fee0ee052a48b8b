// Whether the editor has room for its two panes. The same width as the media queries of
// agent-editor.css; the server renders the two-pane page, and CSS hides the debug column on
// narrower screens until the browser has said so.
import { useSyncExternalStore } from "react";

export const SPLIT_QUERY = "(min-width: 1200px)";

function subscribe(onChange: () => void) {
  const query = window.matchMedia(SPLIT_QUERY);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

export function useWideEditor() {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(SPLIT_QUERY).matches,
    () => true,
  );
}
