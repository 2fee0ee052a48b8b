// Media files for a DingTalk robot's pictures: the file is uploaded first and the robot's picture
// message (sampleImageMsg) names it by the media_id DingTalk answered. The upload lives only on
// DingTalk's older API host (oapi, DINGTALK_OAPI_BASE), with the app's access token in the query
// and {errcode, errmsg} answers; the token is the one the newer API uses (dingtalk-api.ts).
import { getEnv } from "../../../env";
import { fetchErrcodeJson } from "../../../net/errcode-json";
import { DingtalkApiError, dropAccessToken, getAccessToken, type TDingtalkApp } from "./dingtalk-api";

const PATH = "/media/upload";
/** The token is not valid (40014) or has expired (42001): fetch a new one and try once more. */
const STALE_TOKEN = new Set(["40014", "42001"]);
/** An upload may take longer than a call: up to 20 MB on a slow link. */
const UPLOAD_TIMEOUT_MS = 60_000;

export type TDingtalkMediaType = "image" | "voice" | "video" | "file";

/** Uploads `file` as a media file of `type` (form fields "type" and "media"); answers its media_id. */
export async function uploadDingtalkMedia(
  app: TDingtalkApp,
  type: TDingtalkMediaType,
  file: { bytes: Buffer; filename: string; mime: string },
): Promise<string> {
  const base = getEnv().DINGTALK_OAPI_BASE.replace(/\/+$/, "");
  for (let attempt = 0; ; attempt++) {
    const token = await getAccessToken(app);
    const form = new FormData();
    form.append("type", type);
    form.append("media", new Blob([Uint8Array.from(file.bytes)], { type: file.mime }), file.filename);
    // The type rides in the query too: DingTalk's documentation asks for it there when the form's field goes unread (errcode 40004).
    const url = `${base}${PATH}?access_token=${encodeURIComponent(token)}&type=${type}`;
    try {
      const body = await fetchErrcodeJson(url, (code, msg) => new DingtalkApiError(PATH, code === -1 ? 0 : 200, String(code), msg), {
        name: "DingTalk",
        form,
        timeoutMs: UPLOAD_TIMEOUT_MS,
      });
      if (typeof body.media_id !== "string" || !body.media_id) throw new DingtalkApiError(PATH, 200, "bad_answer", "no media_id in the answer");
      return body.media_id;
    } catch (err) {
      if (attempt === 0 && err instanceof DingtalkApiError && STALE_TOKEN.has(err.code)) {
        dropAccessToken(app, token);
        continue;
      }
      throw err;
    }
  }
}
