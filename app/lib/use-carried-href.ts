// Links between the views of one page family (a list, a form, a detail) that carry the current
// query (touser and the rest) but not the family's own keys: a subject's id would otherwise follow
// the person from its detail back to the list, or into another page.
import { useLocation, useNavigate } from "@remix-run/react";
import { useCallback } from "react";
import { isMobiPath } from "../route-table";
import { carryQuery } from "./carry-query";

/** A function that makes `to` into a link keeping the current query, without `ownKeys`, under /mobi on phones. */
export function useCarriedHref(ownKeys: readonly string[]) {
  const { search, pathname } = useLocation();
  const mobi = isMobiPath(pathname);
  return useCallback(
    (to: string) => {
      const kept = new URLSearchParams(search);
      for (const key of ownKeys) kept.delete(key);
      return carryQuery(to, kept.toString(), { mobi });
    },
    [search, mobi, ownKeys],
  );
}

/** navigate() through useCarriedHref. */
export function useCarriedNavigate(ownKeys: readonly string[]) {
  const navigate = useNavigate();
  const href = useCarriedHref(ownKeys);
  return useCallback((to: string, opts?: { replace?: boolean }) => navigate(href(to), opts), [navigate, href]);
}
