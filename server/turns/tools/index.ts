// The built-in plugins as OpenAI tools: which tools an agent offers, and running one
// call. A failing tool never ends the chat: the step shows the error and the model is told.
import type { TAgentInput } from "../../agents/agents.schema";
import type { TFunctionStep } from "../../dialogues/chat.schema";
import { currentTime } from "./current-time";
import { readWebPage } from "./web-reader";
import { searchWeb } from "./web-search";

export type TToolName = "web_search" | "web_reader" | "html_interpreter" | "python_interpreter" | "current_time";
export type TOpenAiTool = { type: "function"; function: { name: string; description: string; parameters: Record<string, unknown> } };
export type TToolRunner = (args: Record<string, unknown>, signal?: AbortSignal) => Promise<TToolOutcome>;

/**
 * Tools a turn resolves for itself (a database training set's SQL query): offered like the
 * built-ins, each run by the runner it was made with. The runner is kept beside the definition,
 * which is sent upstream as it is.
 */
const turnRunners = new WeakMap<TOpenAiTool, TToolRunner>();

export function defineTurnTool(definition: TOpenAiTool, run: TToolRunner): TOpenAiTool {
  turnRunners.set(definition, run);
  return definition;
}

const obj = (properties: Record<string, unknown>, required: string[]) => ({ type: "object", properties, required });

const DEFINITIONS: Record<TToolName, TOpenAiTool> = {
  web_search: {
    type: "function",
    function: {
      name: "web_search",
      description: "Search the web for up-to-date information. Returns titles, URLs and snippets.",
      parameters: obj({ query: { type: "string", description: "What to search for" } }, ["query"]),
    },
  },
  web_reader: {
    type: "function",
    function: {
      name: "web_reader",
      description: "Read the text of a public web page by its URL.",
      parameters: obj({ url: { type: "string", description: "An http(s) URL" } }, ["url"]),
    },
  },
  html_interpreter: {
    type: "function",
    function: {
      name: "html_interpreter",
      description: "Show an HTML page to the user, rendered in the chat. Give a complete, self-contained document.",
      parameters: obj({ code: { type: "string", description: "The HTML" } }, ["code"]),
    },
  },
  python_interpreter: {
    type: "function",
    function: {
      name: "python_interpreter",
      description: "Show Python code to the user as a code block they can run; the server does not run it.",
      parameters: obj({ code: { type: "string", description: "The Python code" } }, ["code"]),
    },
  },
  current_time: {
    type: "function",
    function: {
      name: "current_time",
      description: "The current date and time.",
      parameters: obj({ timezone: { type: "string", description: "An IANA time zone, e.g. Asia/Shanghai" } }, []),
    },
  },
};

/**
 * The agent's plugins (at most 3, as the builder enforces) plus web search when networking is on,
 * then the tools resolved for this turn (defineTurnTool).
 */
export function toolsOf(config: Pick<TAgentInput, "plugins" | "networking">, turnTools: TOpenAiTool[] = []): TOpenAiTool[] {
  const names: TToolName[] = [...config.plugins.slice(0, 3)];
  if (config.networking) names.unshift("web_search");
  return [...names.map((n) => DEFINITIONS[n]), ...turnTools];
}

export type TToolOutcome = { step: TFunctionStep; forModel: string };

function parseArguments(raw: string): Record<string, unknown> {
  if (!raw.trim()) return {};
  const parsed = JSON.parse(raw);
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("the arguments are not a JSON object");
  return parsed as Record<string, unknown>;
}

/** Runs one tool call; never throws (a failure is part of the outcome). */
export async function runTool(name: string, rawArguments: string, offered: TOpenAiTool[], signal?: AbortSignal): Promise<TToolOutcome> {
  let args: Record<string, unknown> = {};
  try {
    args = parseArguments(rawArguments);
    const tool = offered.find((t) => t.function.name === name);
    if (!tool) throw new Error(`the tool ${name} is not available`);
    const runner = turnRunners.get(tool);
    if (runner) return await runner(args, signal);
    switch (name as TToolName) {
      case "web_search": {
        const result = await searchWeb(args, signal);
        return { step: { name, type: "response", params: { arguments: args, result } }, forModel: JSON.stringify(result) };
      }
      case "web_reader": {
        const result = await readWebPage(args, signal);
        return {
          step: {
            name,
            type: "response",
            params: { arguments: args, result: { url: result.url, title: result.title, chars: result.text.length, truncated: result.truncated } },
          },
          forModel: JSON.stringify(result),
        };
      }
      case "current_time": {
        const result = currentTime(args);
        return { step: { name, type: "response", params: { arguments: args, result } }, forModel: JSON.stringify(result) };
      }
      case "html_interpreter":
      case "python_interpreter": {
        // Shown as a code block for the user to run or preview; the server never executes it.
        const code = typeof args.code === "string" ? args.code : "";
        if (!code.trim()) throw new Error("code is required");
        const note =
          name === "python_interpreter"
            ? "The code was shown to the user as a code block; it was not run on the server."
            : "The HTML was shown to the user, rendered in the chat.";
        return { step: { name, type: "response", params: { arguments: args, code } }, forModel: note };
      }
      default:
        throw new Error(`unknown tool ${name}`);
    }
  } catch (err) {
    const message = describeToolError(err);
    return { step: { name, type: "response", params: { arguments: args, error: message } }, forModel: `The tool failed: ${message}` };
  }
}

function describeToolError(err: unknown) {
  const e = err as { name?: string; message?: string; code?: string };
  if (e?.name === "BlockedAddressError") return e.message ?? "refused: not a public address";
  if (e?.name === "AppError") return e.code === "file_too_large" ? "the page is too large" : (e.message ?? String(e.code));
  if (e?.name === "TimeoutError" || e?.name === "AbortError") return "the request timed out";
  return String(e?.message ?? err).slice(0, 300);
}
