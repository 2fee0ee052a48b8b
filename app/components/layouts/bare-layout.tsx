import { Outlet } from "@remix-run/react";
import { AntdShell } from "../shell/antd-shell";

/** Pages that stand alone: access refusals, the phone error page, the share landing. */
export default function BareLayout() {
  return (
    <AntdShell>
      <Outlet />
    </AntdShell>
  );
}
