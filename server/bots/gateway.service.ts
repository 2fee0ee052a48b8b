// What the bot gateway process may ask of the bots area: leases and health of the bots it holds,
// the messages and conversations it answers, the greetings and scheduled sends it fires, and the
// events it records. The gateway is transport (it speaks to chat platforms), so it never reaches a
// repository itself; this is the whole of its reach, and the queries stay in gateway.repository.ts
// (leases: docs/decisions/0010-bots-leases-packages-and-sends.md).
export {
  claimDelivery,
  claimFreeBots,
  claimInbound,
  claimOccurrence,
  dialogueExists,
  expireLapsedBots,
  findDueSchedules,
  finishDelivery,
  loadGatewayBot,
  releaseLeases,
  renewLeases,
  setConversationDialogue,
  touchConversation,
  wasSeen,
  writeHealth,
  type TDueSchedule,
  type TGatewayBot,
} from "./gateway.repository";
export { insertEvent } from "./bots.repository";
export { loadScheduleMedia } from "./schedule-media";
