// What the root shows over every page, with antd's theme around it. Loaded by root-overlays.tsx
// only when needed (a licence notice, a screen lock, the root's error page), so pages without antd
// (the H5 chat) do not download antd for them.
import type { ComponentProps } from "react";
import { AntdShell } from "./antd-shell";
import { ErrorScreen } from "./error-screen";
import { LicenceOverlay } from "./licence-overlay";
import { ScreenLockOverlay } from "./screen-lock-overlay";

export function ThemedLicenceOverlay() {
  return (
    <AntdShell>
      <LicenceOverlay />
    </AntdShell>
  );
}

export function ThemedScreenLock(props: ComponentProps<typeof ScreenLockOverlay>) {
  return (
    <AntdShell>
      <ScreenLockOverlay {...props} />
    </AntdShell>
  );
}

export function ThemedErrorScreen(props: ComponentProps<typeof ErrorScreen>) {
  return (
    <AntdShell>
      <ErrorScreen {...props} />
    </AntdShell>
  );
}
