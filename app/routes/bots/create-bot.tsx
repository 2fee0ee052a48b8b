// /create_bot: my bots; ?new=1 the create form; ?bot_id= one bot's page (state and login QR code,
// settings, package, scheduled messages, what was sent, notices). Another account's bot, or none,
// is the not-found page. A bot id wins over new=1 (navigation carries the query along).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BotCreatePage } from "../../components/bots/bot-create-page";
import { BotListPage } from "../../components/bots/bot-list-page";
import { BotPage } from "../../components/bots/bot-page";
import { requireSessionAccount } from "../../lib/auth.server";
import { orNotFound } from "../../lib/or-not-found.server";
import { listAgents } from "../../../server/agents/agents.service";
import { listDeliveries, listSchedules, listTargets } from "../../../server/bots/bot-schedules.service";
import { getBot, getBotPackageQuote, listBots, listEvents } from "../../../server/bots/bots.service";
import { getEnv } from "../../../server/env";
import "../../components/media/media.css";
import "../../components/bots/bots.css";

// media: the library picker of the schedule form.
export const handle = { i18n: ["bots", "payments", "media"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  const url = new URL(request.url);
  const botId = url.searchParams.get("bot_id");
  if (botId) {
    const [bot, schedules, deliveries, targets, events] = await orNotFound(() =>
      Promise.all([
        getBot(account, botId),
        listSchedules(account, botId),
        listDeliveries(account, botId),
        listTargets(account, botId),
        listEvents(account, botId),
      ]),
    );
    // The callback URL the owner pastes into the platform's console: the public address when set.
    const origin = (getEnv().PUBLIC_URL ?? url.origin).replace(/\/+$/, "");
    return { view: "bot" as const, bot, schedules, deliveries, targets, events, origin };
  }
  if (url.searchParams.get("new") === "1") {
    const [agents, quote] = await Promise.all([listAgents(account), getBotPackageQuote(account)]);
    const live = agents
      .filter((a) => a.live && ["published", "published_in_review", "on_shelf"].includes(a.live.state))
      .map((a) => ({ id: a.id, name: a.name }));
    return { view: "new" as const, agents: live, quote };
  }
  const [bots, quote] = await Promise.all([listBots(account), getBotPackageQuote(account)]);
  return { view: "list" as const, bots, quote };
}

export type TCreateBotData = Awaited<ReturnType<typeof loader>>;

export default function CreateBotPage() {
  // Plain JSON data (ISO strings, no Dates): the loader's own type holds in the browser.
  const data = useLoaderData() as TCreateBotData;
  if (data.view === "bot") return <BotPage key={data.bot.id} data={data} />;
  if (data.view === "new") return <BotCreatePage data={data} />;
  return <BotListPage data={data} />;
}
