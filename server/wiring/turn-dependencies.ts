// The one place a process wires what its turns need from other domains. Called at start by every
// process that runs turns: the web process (server/http/api-router.ts), the bot gateway
// (bot-gateway/main.ts) and the worker (workers/main.ts).
import { databaseToolsFor } from "../knowledge/database/sql-query-tool";
import { composeOfflineReply, OFFLINE_MODEL_KEY } from "../knowledge/offline-channel";
import { retrieve } from "../knowledge/retrieval.service";
import { setTurnDependencies } from "../turns/dependencies";

export function wireTurnDependencies() {
  setTurnDependencies({
    retrieve,
    trainingSetTools: databaseToolsFor,
    offlineReply: (modelKey, passages, outOfScopeReply) => (modelKey === OFFLINE_MODEL_KEY ? composeOfflineReply(passages, outOfScopeReply) : null),
  });
}
