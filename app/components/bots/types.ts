// What the bot pages show, as the service answers it (type-only: nothing of the server is bundled).
import type * as schedules from "../../../server/bots/bot-schedules.service";
import type * as bots from "../../../server/bots/bots.service";

export type { TBotView } from "../../../server/bots/bots.service";
export type { TScheduleView } from "../../../server/bots/bot-schedules.service";
export type TDeliveryView = Awaited<ReturnType<typeof schedules.listDeliveries>>[number];
export type TTargetView = Awaited<ReturnType<typeof schedules.listTargets>>[number];
export type TEventView = Awaited<ReturnType<typeof bots.listEvents>>[number];
export type TBotQuote = Awaited<ReturnType<typeof bots.getBotPackageQuote>>;
export type TAgentOption = { id: string; name: string };

/** Z coins (1 Z = 1 yuan) from micro-units, two decimals. */
/** Micro-Z as every page shows Z coins (the one formatter: server/money/money-format.ts). */
export { formatZ as formatMicro } from "../../../server/money/money-format";
