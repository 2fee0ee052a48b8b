// Links between the three views of /create_bot (my bots, ?new=1, ?bot_id=). Navigation carries the
// current query (touser and the rest), but the page's own keys must not ride along: the bot
// page's bot_id would otherwise follow the owner back to the list.
import { useLocation, useNavigate } from "@remix-run/react";
import { useCallback } from "react";
import { carryQuery } from "../../lib/carry-query";
import { isMobiPath } from "../../route-table";

const OWN_KEYS = ["bot_id", "new"];

export const BOTS_PATH = "/create_bot";
export const newBotPath = () => `${BOTS_PATH}?new=1`;
export const botPath = (botId: string) => `${BOTS_PATH}?bot_id=${encodeURIComponent(botId)}`;

export function useBotsHref() {
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

export function useBotsNavigate() {
  const navigate = useNavigate();
  const href = useBotsHref();
  return useCallback((to: string, opts?: { replace?: boolean }) => navigate(href(to), opts), [navigate, href]);
}
