// The root's overlays and error page without antd in the root's own bundle: each loads its antd
// part (antd-overlays.tsx) only when it has something to show. The server renders lazy parts
// before answering (entry.server waits for onAllReady), so an error page is still server-rendered.
import { lazy, Suspense, type ComponentProps } from "react";
import type { ErrorScreen } from "./error-screen";
import { useScreenLock } from "./screen-lock-poll";
import { useShell } from "./shell-context";

const LazyLicence = lazy(() => import("./antd-overlays").then((m) => ({ default: m.ThemedLicenceOverlay })));
const LazyScreenLock = lazy(() => import("./antd-overlays").then((m) => ({ default: m.ThemedScreenLock })));
const LazyErrorScreen = lazy(() => import("./antd-overlays").then((m) => ({ default: m.ThemedErrorScreen })));

export function RootOverlays() {
  const { licenceNotice } = useShell();
  const lock = useScreenLock();
  // No boundary at all while there is nothing to show: a server-rendered Suspense boundary hydrates
  // after the root, and an update reaching it before then (the lock poll answering on a busy
  // machine) makes React throw error 421 and re-render it on the client.
  if (!licenceNotice && lock?.screen_control !== 1) return null;
  return (
    <Suspense fallback={null}>
      {licenceNotice && <LazyLicence />}
      {lock?.screen_control === 1 && <LazyScreenLock lock={lock} />}
    </Suspense>
  );
}

export function RootErrorScreen(props: ComponentProps<typeof ErrorScreen>) {
  return (
    <Suspense fallback={null}>
      <LazyErrorScreen {...props} />
    </Suspense>
  );
}
