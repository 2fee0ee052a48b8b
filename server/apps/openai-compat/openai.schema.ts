// The OpenAI chat-completions request as this API takes it (other fields are accepted and ignored):
// text content as a string or as text parts; image and audio parts are not read.
import { z } from "zod";

const ZContent = z.union([
  z.string(),
  z
    .array(z.object({ type: z.string(), text: z.string().optional() }).passthrough())
    .transform((parts) => parts.map((p) => (p.type === "text" ? (p.text ?? "") : "")).join("")),
  z.null().transform(() => ""),
]);

export const ZChatCompletionRequest = z
  .object({
    model: z.string().min(1).max(100),
    messages: z
      .array(
        z.object({ role: z.enum(["system", "developer", "user", "assistant", "tool", "function"]), content: ZContent.optional().default("") }).passthrough(),
      )
      .min(1)
      .max(200),
    stream: z.boolean().optional().default(false),
    stream_options: z.object({ include_usage: z.boolean().optional() }).passthrough().nullish(),
    /** Not OpenAI's: the agent's variables, for agents that require some. */
    variables: z.record(z.string().max(40), z.union([z.string(), z.number(), z.boolean()])).optional(),
  })
  .passthrough();
export type TChatCompletionRequest = z.infer<typeof ZChatCompletionRequest>;

export type TOpenAiUsage = { prompt_tokens: number; completion_tokens: number; total_tokens: number };
