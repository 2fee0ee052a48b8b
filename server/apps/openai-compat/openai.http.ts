// The OpenAI-compatible API of an API app: POST /v1/chat/completions (streamed or not)
// and GET /v1/models, the app's key as the bearer token, so any OpenAI client talks to the app's
// agent. Stateless: the client's messages are the turn. The last message must be the user's (the
// input); earlier user and assistant messages are the history; system (and developer) messages are
// appended to the agent's own system prompt, after it. Each reply given is one AppUse (source api).
import express, { type Request, type Response } from "express";
import { ZodError } from "zod";
import { AppError } from "../../errors/app-error";
import { getRequestLanguage } from "../../http/request-context";
import { ZSendMessageInput } from "../../dialogues/chat.schema";
import { runTurn } from "../../turns/index";
import { prepareAppTurn } from "../app-turn.service";
import { authenticateApiCall } from "./api-caller";
import { createOpenAiSink } from "./openai-sink";
import { sendOpenAiError, toOpenAiError } from "./openai-errors";
import { ZChatCompletionRequest, type TChatCompletionRequest } from "./openai.schema";

/** Paths under the router's mount point, /v1. */
export const OPENAI_PATHS = { completions: "/chat/completions", models: "/models" } as const;

/** The turn's parts from the client's messages. */
export function readMessages(messages: TChatCompletionRequest["messages"]) {
  const system: string[] = [];
  const turns: { role: "user" | "assistant"; content: string }[] = [];
  for (const m of messages) {
    const content = typeof m.content === "string" ? m.content : "";
    if (m.role === "system" || m.role === "developer") {
      if (content.trim()) system.push(content);
    } else if (m.role === "user" || m.role === "assistant") {
      turns.push({ role: m.role, content });
    }
  }
  const last = turns.pop();
  if (!last || last.role !== "user" || !last.content.trim()) {
    throw new ZodError([{ code: "custom", path: ["messages"], message: "validation.required", input: undefined }]);
  }
  return { input: last.content, history: turns, system: system.join("\n\n") };
}

async function completeChat(req: Request, res: Response) {
  const lng = getRequestLanguage(req);
  let prepared: Awaited<ReturnType<typeof prepareAppTurn>>;
  let body: TChatCompletionRequest;
  try {
    const { holder, caller } = await authenticateApiCall(req.headers.authorization);
    body = ZChatCompletionRequest.parse(req.body ?? {});
    const { input, history, system } = readMessages(body.messages);
    const send = ZSendMessageInput.parse({ app_id: holder.appId, content: input, variables: body.variables ?? {} });
    prepared = await prepareAppTurn(send, caller, { history, extraSystem: system });
  } catch (err) {
    return sendOpenAiError(res, toOpenAiError(err, lng));
  }
  const sink = createOpenAiSink(res, { model: prepared.app.id, stream: body.stream, includeUsage: Boolean(body.stream_options?.include_usage) });
  try {
    await runTurn(prepared.turn, sink, lng);
  } finally {
    sink.close();
  }
}

async function listModels(req: Request, res: Response) {
  try {
    const { holder } = await authenticateApiCall(req.headers.authorization);
    const model = { id: holder.appId, object: "model", created: Math.floor(holder.appCreatedAt.getTime() / 1000), owned_by: "zelin" };
    if (req.params.id !== undefined) {
      if (req.params.id !== holder.appId) throw new AppError("not_found");
      return void res.json(model);
    }
    res.json({ object: "list", data: [model] });
  } catch (err) {
    sendOpenAiError(res, toOpenAiError(err, getRequestLanguage(req)));
  }
}

/** Mounted at /v1 of the site, ahead of compression (streams leave event by event). */
export function createOpenAiRouter() {
  const router = express.Router();
  router.use(OPENAI_PATHS.completions, express.json({ limit: "4mb" }));
  router.post(OPENAI_PATHS.completions, (req, res) => void completeChat(req, res));
  router.get(OPENAI_PATHS.models, (req, res) => void listModels(req, res));
  router.get(`${OPENAI_PATHS.models}/:id`, (req, res) => void listModels(req, res));
  return router;
}
