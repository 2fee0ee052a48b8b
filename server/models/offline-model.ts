// The model key of the offline channel, a channel the gateway answers itself (offline-completion.ts)
// with what knowledge/offline-channel.ts composed. Its own file, free of server imports, because
// the agent editor in the browser labels this model too.
export const OFFLINE_MODEL_KEY = "zelin-offline";
