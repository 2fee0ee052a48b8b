/** The two event streams, paths relative to /api. The web app also serves them ahead of its other middleware. */
export const CHAT_STREAM_PATHS = { debug: "/v1/ai_message/send_message/sse", live: "/v2/app/send_message/sse" } as const;
