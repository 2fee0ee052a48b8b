// The workshop pages' paths, and links between them. Navigation carries the current query (touser
// and the rest), but these pages' own keys must not ride along: a workshop's `id` would otherwise
// turn "create a workshop" into editing it, or open another page's subject (/create_app?id=).
import { useLocation, useNavigate } from "@remix-run/react";
import { useCallback } from "react";
import { carryQuery } from "../../lib/carry-query";
import { isMobiPath, toMobiPath } from "../../route-table";

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

export function useWorkshopHref() {
  const { search, pathname } = useLocation();
  const mobi = isMobiPath(pathname);
  return useCallback(
    (to: string) => {
      const kept = new URLSearchParams(search);
      for (const key of OWN_KEYS) kept.delete(key);
      return carryQuery(to, kept.toString(), { mobi });
    },
    [search, mobi],
  );
}

export function useWorkshopNavigate() {
  const navigate = useNavigate();
  const href = useWorkshopHref();
  return useCallback((to: string, opts?: { replace?: boolean }) => navigate(href(to), opts), [navigate, href]);
}
