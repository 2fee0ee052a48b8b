import { Outlet } from "@remix-run/react";

/** Pages that stand alone: access refusals and the phone error page. */
export default function BareLayout() {
  return <Outlet />;
}
