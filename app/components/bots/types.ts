// What the bot pages show, as the bots router declares it (type-only: nothing of the server is bundled).
export type {
  TBotView,
  TScheduleView,
  TDeliveryView,
  TTargetView,
  TBotEventView as TEventView,
  TBotPackageQuote as TBotQuote,
} from "../../../server/bots/bots.schema";
export type TAgentOption = { id: string; name: string };

/** Z coins (1 Z = 1 yuan) from micro-units, two decimals. */
/** Micro-Z as every page shows Z coins (the one formatter: server/money/money-format.ts). */
export { formatZ as formatMicro } from "../../../server/money/money-format";
