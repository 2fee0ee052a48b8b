// The offline channel's side of the gateway: it needs no network, so it answers with the reply the
// turn composed beforehand (knowledge/offline-channel.ts), shaped like an OpenAI-compatible channel's.
import { OFFLINE_MODEL_KEY } from "./offline-model";

/** Without a chat turn behind it (an API call, a channel test) the offline channel has nothing to retrieve. */
const NO_CONTEXT_REPLY = "This is the offline channel: it answers only from an agent's Q&A training sets.";

/** The reply as OpenAI chat-completion chunks, a few characters at a time like a model would. */
export async function* streamOfflineReply(reply: string | null | undefined) {
  const text = reply ?? NO_CONTEXT_REPLY;
  const chars = [...text];
  for (let i = 0; i < chars.length; i += 24) {
    yield {
      object: "chat.completion.chunk",
      model: OFFLINE_MODEL_KEY,
      choices: [{ index: 0, delta: { ...(i === 0 ? { role: "assistant" } : {}), content: chars.slice(i, i + 24).join("") }, finish_reason: null }],
    };
  }
  yield { object: "chat.completion.chunk", model: OFFLINE_MODEL_KEY, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] };
}

export function offlineCompletion(reply: string | null | undefined) {
  const content = reply ?? NO_CONTEXT_REPLY;
  return { object: "chat.completion", model: OFFLINE_MODEL_KEY, choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }] };
}
