// The model key of the offline channel (issue 5). Its own file, free of server imports, because
// the agent editor in the browser labels this model too.
export const OFFLINE_MODEL_KEY = "zelin-offline";
