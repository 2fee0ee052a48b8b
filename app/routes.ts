import { layout, route, type RouteConfig, type RouteConfigEntry } from "@remix-run/route-config";
import { buildRouteNodes, type TRouteNode } from "./lib/build-routes";
import { ROUTE_TABLE } from "./route-table";

function toConfig(node: TRouteNode): RouteConfigEntry {
  const children = node.children?.map(toConfig);
  return node.path === undefined ? layout(node.file, { id: node.id }, children) : route(node.path, node.file, { id: node.id }, children);
}

export default buildRouteNodes(ROUTE_TABLE).map(toConfig) satisfies RouteConfig;
