// The workshop pages' paths, and links between them. Navigation carries the current query (touser
// and the rest), but these pages' own keys must not ride along: a workshop's `id` would otherwise
// turn "create a workshop" into editing it, or open another page's subject (/create_app?id=).
import { useCarriedHref, useCarriedNavigate } from "../../lib/use-carried-href";
import { toMobiPath } from "../../route-table";

const OWN_KEYS = ["id", "app", "run", "workshop_id", "type"];

const q = (id: string) => encodeURIComponent(id);
export const WORKSHOP_LIST_PATH = "/workshopList";
export const newWorkshopPath = () => "/createWork";
export const workshopInfoPath = (id: string) => `/createWork?id=${q(id)}`;
export const workshopEditorPath = (id: string) => `/CreatedWorkshop?id=${q(id)}`;
export const workshopRunPath = (id: string) => `/workshop?id=${q(id)}`;
export const publishWorkshopPath = (id: string) => `/create_app?type=workshop&workshop_id=${q(id)}`;

/** A workshop app's run page: where its share link and the market's "open" lead. */
export function workshopAppPath(appId: string, mobi = false) {
  const path = `/workshop?app=${q(appId)}`;
  return mobi ? toMobiPath(path) : path;
}

export const useWorkshopHref = () => useCarriedHref(OWN_KEYS);
export const useWorkshopNavigate = () => useCarriedNavigate(OWN_KEYS);
