// An app's turn, its read and decide phases (the pipeline is server/turns/index.ts): the app and
// who may open it, the entitlement, its agent's live version answered with the agent OWNER's
// training sets and channels, and a dialogue of the consumer (a signed-in account, else the
// anonymous visitor). Every refusal comes before any row is written or any upstream asked; the use
// is claimed last and released when no reply comes. The app's owner pays each reply's channel
// fee: refused app_owner_balance_insufficient when they cannot, read beside the agent so the first
// token waits for no extra round trip.
import { toChatAgent } from "../agents/agents.service";
import { AppError } from "../errors/app-error";
import { getCachedRouting } from "../models/gateway.service";
import { buildTurn, type TActor, type TTurn, type TTurnContext } from "../turns/index";
import type { TSendMessageInput } from "../dialogues/chat.schema";
import * as dialoguesRepo from "../dialogues/dialogues.repository";
import { loadReadableDocument } from "../dialogues/documents.service";
import { assertConsumerOwns, loadOpenableApp } from "./app-access.service";
import { assertMayUse, claimUse, finishUse, releaseUse, type TConsumer, type TUseClaim, type TUseSource } from "./app-entitlements.service";
import * as repo from "./app-uses.repository";
import { assertTurnImages, attachTurnImages } from "./app-voice.service";
import { toPublicFileUrl } from "../uploads/uploads.service";
import { getWallet } from "../money/ledger.service";
import { billAppTurn } from "../money/metering/chat-charges.service";

export type TAppCaller = { consumer: TConsumer; source: TUseSource; apiKeyId?: string | null };

export type TAppTurnOptions = {
  /** Earlier exchanges given by the client (the stateless OpenAI-compatible API) instead of a stored dialogue. */
  history?: { role: "user" | "assistant"; content: string }[];
  /** Appended to the agent's system prompt (the API's system messages). */
  extraSystem?: string;
  now?: Date;
};

/** Everything refusable is settled here; the returned turn has a claimed use attached. */
export async function prepareAppTurn(
  input: TSendMessageInput,
  caller: TAppCaller,
  opts: TAppTurnOptions = {},
): Promise<{ turn: TTurn; claim: TUseClaim; app: repo.TAppForTurn }> {
  const now = opts.now ?? new Date();
  const { consumer } = caller;
  const app = await loadOpenableApp(input.app_id, consumer, caller.source);
  // A workshop app is a conversation of several agents, run by the workshop's engine, never one agent's chat.
  if (app.type === "workshop") throw new AppError("not_found");
  // Before anything heavier: a consumer past their count reads nothing more and asks nobody.
  await assertMayUse(app, consumer, now);
  const imageKeys = assertTurnImages(app, input.images ?? []);

  const agentId = app.agents[0]?.agentId;
  if (!agentId) throw new AppError("not_found");
  const dialogueId = input.dialogue_id ?? null;
  const [{ agent, version }, existing, rows, ownerWallet] = await Promise.all([
    repo.findAgentWithLiveVersion(agentId),
    dialogueId ? repo.findAppDialogue(dialogueId) : null,
    dialogueId ? dialoguesRepo.listMessagesOf(dialogueId) : [],
    getWallet(app.ownerAccountId),
  ]);
  if (dialogueId) {
    assertConsumerOwns(existing, consumer);
    if (existing!.appId !== app.id || existing!.agentId !== agentId) throw new AppError("not_found");
  }
  if (!agent) throw new AppError("not_found");
  // The app's owner is who runs its agent: an agent that is neither theirs nor on the market's
  // shelf (a reference written before references were checked) does not run.
  const owner = await repo.findOwnerActor(app.ownerAccountId);
  if (!owner) throw new AppError("not_found");
  const ownerActor: TActor = owner;
  const chatAgent = toChatAgent(ownerActor, agent, version, "live");
  const bill = billAppTurn({
    ownerAccountId: app.ownerAccountId,
    ownerWallet,
    app: { id: app.id, name: app.name },
    agent: { agentId: chatAgent.agentId, name: chatAgent.name },
  });

  const [routing, document] = await Promise.all([
    getCachedRouting(chatAgent.config.model_key, ownerActor.id),
    pickAppDocument(consumer, chatAgent.config.document_reading, input.ufids[0]),
  ]);
  const m = routing.model;
  const ctx: TTurnContext = {
    agent: chatAgent,
    existing,
    rows: dialogueId ? rows : historyRows(opts.history ?? [], now),
    model: m ? { key: m.key, kind: m.kind, supportsTools: m.supportsTools, contextWindow: m.contextWindow, enabled: m.enabled } : null,
    document,
    bill,
  };
  // Retrieval and routing as the agent's owner: the app answers from the owner's training sets.
  const turn = await buildTurn(ownerActor, input, ctx);
  if (opts.extraSystem?.trim()) appendSystem(turn, opts.extraSystem.trim());
  // A regenerated answer sees the question's pictures again, as the first answer did.
  await attachTurnImages(turn, imageKeys.length || turn.userMessage.isNew ? imageKeys : storedImageKeys(app, rows, turn.userMessage.id));
  // The pictures stay with the question, so the dialogue shows them again when reopened.
  if (turn.userMessage.isNew && imageKeys.length) turn.userMessage.images = imageKeys.map(toPublicFileUrl);

  const claim = await claimUse(app, consumer, { source: caller.source, apiKeyId: caller.apiKeyId ?? null }, now);
  turn.app = {
    appId: app.id,
    source: caller.source,
    accountId: consumer.account?.id ?? null,
    visitorId: consumer.account ? null : consumer.visitorId,
    outputModes: (app as { outputModes?: string[] }).outputModes,
    // One use per reply given: a reply with text counts (even stopped); none, and the use is released.
    onFinished: async (end) => {
      if ((end.outcome === "done" || end.outcome === "stopped") && end.content.length > 0) {
        await finishUse(claim, { dialogueId: end.dialogueId, promptTokens: end.usage.prompt_tokens, completionTokens: end.usage.completion_tokens });
      } else {
        await releaseUse(claim);
      }
    },
  };
  return { turn, claim, app };
}

/** The pictures kept with a question, while the app still takes pictures (else the text alone). */
function storedImageKeys(app: { id: string; inputModes?: string[] }, rows: dialoguesRepo.TMessageRow[], messageId: string): string[] {
  const kept = rows.find((r) => r.id === messageId)?.images;
  const urls = Array.isArray(kept) ? kept.filter((u): u is string => typeof u === "string") : [];
  if (!urls.length || !app.inputModes?.includes("image")) return [];
  try {
    return assertTurnImages(app, urls);
  } catch {
    return [];
  }
}

/** Documents are an account's uploads: an anonymous visitor sends none. */
async function pickAppDocument(consumer: TConsumer, reading: boolean, sentId: string | undefined) {
  if (!sentId) return null;
  if (!reading || !consumer.account)
    throw new AppError("validation_failed", { data: { fields: [{ path: "ufids", message: "validation.document_reading_off" }] } });
  return { doc: await loadReadableDocument(consumer.account, sentId) };
}

/** Client-given history as stored rows, so the turn keeps context the way a stored dialogue does. */
function historyRows(history: { role: "user" | "assistant"; content: string }[], now: Date): dialoguesRepo.TMessageRow[] {
  return history.map((h, i) => ({
    id: `h${i}`,
    dialogueId: "",
    role: h.role,
    content: h.content,
    reasoning: "",
    functions: [],
    retrieve: [],
    images: [],
    status: "done",
    feedback: "none",
    replacesId: null,
    createdAt: new Date(now.getTime() - (history.length - i) * 1000 - 10 * 60_000),
  }));
}

function appendSystem(turn: TTurn, text: string) {
  const system = turn.messages.find((m) => m.role === "system");
  if (system && typeof system.content === "string") system.content = `${system.content}\n\n${text}`;
  else turn.messages.unshift({ role: "system", content: text });
}
