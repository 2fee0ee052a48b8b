// Links between the three views of /create_bot (my bots, ?new=1, ?bot_id=). Navigation carries the
// current query (touser and the rest), but the page's own keys must not ride along: the bot
// page's bot_id would otherwise follow the owner back to the list.
import { useCarriedHref, useCarriedNavigate } from "../../lib/use-carried-href";

const OWN_KEYS = ["bot_id", "new"];

export const BOTS_PATH = "/create_bot";
export const newBotPath = () => `${BOTS_PATH}?new=1`;
export const botPath = (botId: string) => `${BOTS_PATH}?bot_id=${encodeURIComponent(botId)}`;

export const useBotsHref = () => useCarriedHref(OWN_KEYS);
export const useBotsNavigate = () => useCarriedNavigate(OWN_KEYS);
