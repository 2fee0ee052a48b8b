// DingTalk's OpenAPI as a robot uses it (api.dingtalk.com, v1.0): the app's access token, the
// robot's own sends to people and groups, AI cards (create-and-deliver, then streaming updates),
// and the session webhook a received message carries for answering it. The base address is a
// setting (DINGTALK_API_BASE) so tests point it at a loopback fake; the session webhook is a full
// URL DingTalk hands us with each message.
import crypto from "node:crypto";
import { getEnv } from "../../../env";

const REQUEST_TIMEOUT_MS = 10_000;
/** A token is renewed this long before DingTalk says it expires (it lives 7200 s). */
const TOKEN_MARGIN_MS = 5 * 60_000;

export type TDingtalkApp = { clientId: string; clientSecret: string };

/** DingTalk answered with an error (HTTP status and its `code`, or a webhook's errcode). */
export class DingtalkApiError extends Error {
  constructor(
    readonly path: string,
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`dingtalk ${path}: ${status} ${code} ${message}`);
    this.name = "DingtalkApiError";
  }
}

type TToken = { value: string; expiresAt: number };
// One token per app for the whole process: every bot of an app, and every channel instance built
// just to answer or send, shares it (DingTalk limits how often a token may be fetched).
const tokens = new Map<string, TToken>();
const pendingTokens = new Map<string, Promise<string>>();

const tokenKey = (app: TDingtalkApp) => `${app.clientId}:${crypto.createHash("sha256").update(app.clientSecret).digest("hex").slice(0, 16)}`;

async function requestJson(url: string, init: { method: string; body?: unknown; headers?: Record<string, string> }, path: string) {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method,
      headers: { "content-type": "application/json", accept: "application/json", ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (err) {
    throw new DingtalkApiError(path, 0, "network", err instanceof Error ? err.message : String(err));
  }
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    if (res.ok) throw new DingtalkApiError(path, res.status, "bad_json", text.slice(0, 200));
  }
  if (!res.ok) throw new DingtalkApiError(path, res.status, String(json.code ?? "http_error"), String(json.message ?? text.slice(0, 200)));
  return json;
}

/** The app's access token: cached until shortly before it expires, one request at a time per app. */
export async function getAccessToken(app: TDingtalkApp): Promise<string> {
  const key = tokenKey(app);
  const cached = tokens.get(key);
  if (cached && cached.expiresAt > Date.now()) return cached.value;
  let pending = pendingTokens.get(key);
  if (!pending) {
    const path = "/v1.0/oauth2/accessToken";
    pending = requestJson(`${getEnv().DINGTALK_API_BASE}${path}`, { method: "POST", body: { appKey: app.clientId, appSecret: app.clientSecret } }, path)
      .then((json) => {
        const value = String(json.accessToken ?? "");
        const expireIn = Number(json.expireIn ?? 0);
        if (!value || !(expireIn > 0)) throw new DingtalkApiError(path, 200, "bad_token", "no accessToken in the answer");
        tokens.set(key, { value, expiresAt: Date.now() + Math.max(expireIn * 1000 - TOKEN_MARGIN_MS, expireIn * 500) });
        return value;
      })
      .finally(() => pendingTokens.delete(key));
    pendingTokens.set(key, pending);
  }
  return pending;
}

/** Forgets the app's token `refused` (DingTalk refused it before it was due to expire); a newer one stays. */
export function dropAccessToken(app: TDingtalkApp, refused: string) {
  const key = tokenKey(app);
  if (tokens.get(key)?.value === refused) tokens.delete(key);
}

/** An OpenAPI call with the app's token; a refused token is fetched again once. */
async function openApi(app: TDingtalkApp, method: "POST" | "PUT", path: string, body: unknown) {
  for (let attempt = 0; ; attempt++) {
    const token = await getAccessToken(app);
    try {
      return await requestJson(`${getEnv().DINGTALK_API_BASE}${path}`, { method, body, headers: { "x-acs-dingtalk-access-token": token } }, path);
    } catch (err) {
      if (attempt === 0 && err instanceof DingtalkApiError && err.status === 401) {
        dropAccessToken(app, token);
        continue;
      }
      throw err;
    }
  }
}

/** A markdown message's title: what the chat list and notifications show (the first line, plain). */
export function markdownTitle(text: string, fallback: string): string {
  const first = text
    .split("\n")
    .map((l) =>
      l
        .replace(/^[#>\-*+\s]+/, "")
        .replace(/[*_`~[\]]/g, "")
        .trim(),
    )
    .find((l) => l.length > 0);
  const title = first ?? fallback;
  return [...title].length > 30 ? `${[...title].slice(0, 29).join("")}…` : title;
}

/** Answers through a received message's session webhook (no token needed; it lapses after a while). */
export async function postSessionWebhook(webhook: string, markdown: { title: string; text: string }) {
  const json = await requestJson(webhook, { method: "POST", body: { msgtype: "markdown", markdown } }, "sessionWebhook");
  const errcode = Number(json.errcode ?? 0);
  if (errcode !== 0) throw new DingtalkApiError("sessionWebhook", 200, String(errcode), String(json.errmsg ?? ""));
}

/** A robot message: a template key and its parameters (sampleMarkdown: title and text; sampleImageMsg: photoURL). */
export type TRobotMessage = { msgKey: "sampleMarkdown" | "sampleImageMsg"; msgParam: Record<string, string> };

export const robotMarkdown = (markdown: { title: string; text: string }): TRobotMessage => ({ msgKey: "sampleMarkdown", msgParam: markdown });
/** A picture by the media_id its upload answered (dingtalk-media.ts): DingTalk shows it inline. */
export const robotPicture = (mediaId: string): TRobotMessage => ({ msgKey: "sampleImageMsg", msgParam: { photoURL: mediaId } });

/** The robot writes to people one to one (by their userId, the staff id). */
export async function sendToUsers(app: TDingtalkApp, userIds: string[], message: TRobotMessage | { title: string; text: string }) {
  const m = "msgKey" in message ? message : robotMarkdown(message);
  const json = await openApi(app, "POST", "/v1.0/robot/oToMessages/batchSend", {
    robotCode: app.clientId,
    userIds,
    msgKey: m.msgKey,
    msgParam: JSON.stringify(m.msgParam),
  });
  // DingTalk answers 200 and lists the people it could not write to.
  const refused = [...asStrings(json.invalidStaffIdList), ...asStrings(json.flowControlledStaffIdList), ...asStrings(json.invalidUserIdList)];
  if (refused.length) throw new DingtalkApiError("/v1.0/robot/oToMessages/batchSend", 200, "refused_users", refused.join(","));
}

/** The robot writes to a group it is in (by the group's openConversationId). */
export async function sendToGroup(app: TDingtalkApp, openConversationId: string, message: TRobotMessage | { title: string; text: string }) {
  const m = "msgKey" in message ? message : robotMarkdown(message);
  await openApi(app, "POST", "/v1.0/robot/groupMessages/send", {
    robotCode: app.clientId,
    openConversationId,
    msgKey: m.msgKey,
    msgParam: JSON.stringify(m.msgParam),
  });
}

const asStrings = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);

/** Where a card goes: a one-to-one chat with the robot (by the person's userId) or a group. */
export type TCardSpace = { kind: "contact"; userId: string } | { kind: "group"; openConversationId: string };

/** Creates an AI card instance from a template and delivers it into the chat; `outTrackId` names it from then on. */
export async function createAndDeliverCard(
  app: TDingtalkApp,
  card: { outTrackId: string; templateId: string; params: Record<string, string>; space: TCardSpace },
) {
  const space =
    card.space.kind === "group"
      ? {
          openSpaceId: `dtv1.card//IM_GROUP.${card.space.openConversationId}`,
          imGroupOpenSpaceModel: { supportForward: true },
          imGroupOpenDeliverModel: { robotCode: app.clientId },
        }
      : {
          openSpaceId: `dtv1.card//IM_ROBOT.${card.space.userId}`,
          imRobotOpenSpaceModel: { supportForward: true },
          imRobotOpenDeliverModel: { spaceType: "IM_ROBOT", robotCode: app.clientId },
        };
  const json = await openApi(app, "POST", "/v1.0/card/instances/createAndDeliver", {
    cardTemplateId: card.templateId,
    outTrackId: card.outTrackId,
    cardData: { cardParamMap: card.params },
    callbackType: "STREAM",
    userIdType: 1,
    ...space,
  });
  const results = (json.result as { deliverResults?: Array<{ success?: boolean; errorMsg?: string }> } | undefined)?.deliverResults ?? [];
  const failed = results.find((r) => r.success === false);
  if (failed) throw new DingtalkApiError("/v1.0/card/instances/createAndDeliver", 200, "deliver_failed", failed.errorMsg ?? "");
}

/** One streaming update of an AI card's variable: the whole text so far (isFull), the last one finalized. */
export async function streamCard(app: TDingtalkApp, update: { outTrackId: string; key: string; content: string; isFinalize: boolean; isError: boolean }) {
  await openApi(app, "PUT", "/v1.0/card/streaming", {
    outTrackId: update.outTrackId,
    guid: crypto.randomUUID(),
    key: update.key,
    content: update.content,
    isFull: true,
    isFinalize: update.isFinalize,
    isError: update.isError,
  });
}
