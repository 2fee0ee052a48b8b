// What a voice recording is, told by its bytes: what browsers record (WebM or Ogg with Opus, MP4
// audio on Safari) and what people upload (MP3, WAV, M4A, FLAC, AAC, Ogg). The name and the type the
// form declared can only refuse a file (a "voice.txt" is not a recording, whatever it holds), never
// make one acceptable. Whether it holds enough clean speech is the worker's to measure.
import { AppError } from "../errors/app-error";
import { VOICE_UPLOAD_MAX_BYTES } from "./digital.schema";

export type TVoiceFileKind = "webm" | "ogg" | "wav" | "flac" | "m4a" | "mp3" | "aac";
export type TAcceptedVoiceFile = { bytes: Buffer; kind: TVoiceFileKind; mime: string; ext: string; size: number };

const VOICE_FILE_TYPES: Record<TVoiceFileKind, { mime: string; ext: string }> = {
  webm: { mime: "audio/webm", ext: "webm" },
  ogg: { mime: "audio/ogg", ext: "ogg" },
  wav: { mime: "audio/wav", ext: "wav" },
  flac: { mime: "audio/flac", ext: "flac" },
  m4a: { mime: "audio/mp4", ext: "m4a" },
  mp3: { mime: "audio/mpeg", ext: "mp3" },
  aac: { mime: "audio/aac", ext: "aac" },
};

/** Extensions a recording may carry (or none); any other names a file of another kind. */
const AUDIO_EXTENSIONS = new Set(["mp3", "wav", "wave", "m4a", "mp4", "aac", "flac", "ogg", "oga", "opus", "webm", "weba"]);
/** Declared types that say nothing against audio: the browsers' and devices' words for these containers. */
const AUDIO_CONTAINER_MIMES = new Set(["video/webm", "video/mp4", "video/ogg", "application/ogg", "application/octet-stream"]);
/** HEIF and AVIF pictures share MP4's container: their brands are pictures, not sound. */
const STILL_IMAGE_BRANDS = new Set(["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif", "avis"]);

/** The recording's kind from its first bytes, or null when it is none of the formats a voice is cloned from. */
export function sniffVoiceFile(bytes: Buffer): TVoiceFileKind | null {
  if (bytes.length < 12) return null;
  const ascii = (from: number, to: number) => bytes.subarray(from, to).toString("latin1");
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return ascii(4, 64).includes("webm") ? "webm" : null;
  if (ascii(0, 4) === "OggS") return "ogg";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WAVE") return "wav";
  if (ascii(0, 4) === "fLaC") return "flac";
  if (ascii(4, 8) === "ftyp") return STILL_IMAGE_BRANDS.has(ascii(8, 12)) ? null : "m4a";
  if (ascii(0, 3) === "ID3") return "mp3";
  // Frame sync (11 bits set): MPEG audio layers I-III have a non-zero layer field; AAC's ADTS has 00.
  if (bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0) {
    if ((bytes[1] & 0xf6) === 0xf0) return "aac";
    return (bytes[1] & 0x06) !== 0 ? "mp3" : null;
  }
  return null;
}

function extensionOf(filename: string) {
  const base = filename.split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
}

/** Whether the form's name and type leave room for a recording (an unknown or missing one does). */
function declaredAsAudio(filename: string, mimeType: string) {
  const ext = extensionOf(filename);
  const mime = mimeType.split(";")[0].trim().toLowerCase();
  const nameFits = !ext || AUDIO_EXTENSIONS.has(ext);
  const typeFits = !mime || mime.startsWith("audio/") || AUDIO_CONTAINER_MIMES.has(mime);
  return nameFits && typeFits;
}

/** A recording of an accepted format within VOICE_UPLOAD_MAX_BYTES, or the catalogue's refusal that says why not. */
export function acceptVoiceFile(file: { bytes: Buffer; filename: string; mimeType: string } | undefined): TAcceptedVoiceFile {
  if (!file?.bytes.length) throw new AppError("file_empty_or_prohibited");
  if (file.bytes.length > VOICE_UPLOAD_MAX_BYTES) throw new AppError("file_too_large", { data: { max_bytes: VOICE_UPLOAD_MAX_BYTES } });
  const kind = sniffVoiceFile(file.bytes);
  if (!kind || !declaredAsAudio(file.filename, file.mimeType)) throw new AppError("audio_type_not_allowed");
  return { bytes: file.bytes, kind, ...VOICE_FILE_TYPES[kind], size: file.bytes.length };
}
