// The one link and navigate helper every page uses: it carries the current query (and so touser)
// and keeps phone pages on their /mobi paths.
import { Link, useLocation, useNavigate, type LinkProps } from "@remix-run/react";
import { forwardRef, useCallback } from "react";
import { carryQuery } from "../lib/carry-query";
import { isMobiPath } from "../route-table";

export function useCarryHref() {
  const location = useLocation();
  const mobi = isMobiPath(location.pathname);
  return useCallback((to: string) => carryQuery(to, location.search, { mobi }), [location.search, mobi]);
}

export const AppLink = forwardRef<HTMLAnchorElement, Omit<LinkProps, "to"> & { to: string }>(function AppLink({ to, ...rest }, ref) {
  const href = useCarryHref()(to);
  return <Link ref={ref} to={href} {...rest} />;
});

export function useAppNavigate() {
  const navigate = useNavigate();
  const carry = useCarryHref();
  return useCallback((to: string, opts?: { replace?: boolean }) => navigate(carry(to), opts), [navigate, carry]);
}

export function useIsMobi() {
  return isMobiPath(useLocation().pathname);
}
