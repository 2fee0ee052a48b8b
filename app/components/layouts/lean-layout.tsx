import { Outlet } from "@remix-run/react";

/**
 * Pages that stand alone and load no antd (neither its theme nor its App context): the H5 chat,
 * kept small for phones (at most 170 KB of gzipped JavaScript, bench/mobi-bundle.ts). Pages here use plain
 * elements and @ant-design/icons only.
 */
export default function LeanLayout() {
  return <Outlet />;
}
