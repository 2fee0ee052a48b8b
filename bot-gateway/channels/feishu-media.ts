// A generated picture or video as a Feishu message: the picture uploaded as a message image and sent
// as an image message; the video uploaded as an MP4 file and sent as a media message, its poster
// uploaded as the cover (a file message when it has none). Null when the item is not ours, or is
// past what Feishu takes: the channel then sends its link.
import type { FeishuApi, TFeishuMessage } from "../../server/bots/platforms/feishu/feishu-api";
import type { TTurnMedia } from "../../server/turns/sink";
import { readReplyFile } from "../core/reply-media";

/** Message images: at most 10 MB (Feishu also takes WebP and GIF). */
const IMAGE_LIMITS = { maxBytes: 10 * 1024 * 1024, mimes: ["image/png", "image/jpeg", "image/webp", "image/gif"] };
/** Files: at most 30 MB; only MP4 plays as a media message. */
const VIDEO_LIMITS = { maxBytes: 30 * 1024 * 1024, mimes: ["video/mp4"] };

export async function feishuMediaMessage(api: FeishuApi, item: TTurnMedia): Promise<TFeishuMessage | null> {
  if (item.kind === "image") {
    const file = await readReplyFile(item, IMAGE_LIMITS);
    return file && { msgType: "image", content: JSON.stringify({ image_key: await api.uploadImage(file.bytes) }) };
  }
  const video = await readReplyFile(item, VIDEO_LIMITS);
  if (!video) return null;
  const fileKey = await api.uploadFile({ bytes: video.bytes, name: video.filename, type: "mp4" });
  const poster = item.posterUrl ? await readReplyFile({ kind: "image", url: item.posterUrl, mime: "", posterUrl: null }, IMAGE_LIMITS) : null;
  if (!poster) return { msgType: "file", content: JSON.stringify({ file_key: fileKey }) };
  return { msgType: "media", content: JSON.stringify({ file_key: fileKey, image_key: await api.uploadImage(poster.bytes) }) };
}
