// A digital-human app on its phone page: the stage (the owner's figure over the scene's background,
// where the scene places it), the instance that runs while someone talks to it, and its replies
// spoken in the scene's voice. Every reply is spoken, whatever the app's auto-play says: a digital
// human that does not speak is a picture. The speech and the instance's hours are the owner's to pay,
// like the app's channel fee; when they cannot, the reply's text stands alone and the stage rests.
import { logger } from "../lib/logger";
import { speakBilled } from "../media/speech.service";
import { readMediaMeta } from "../media/file-work";
import { toPublicFileUrl } from "../uploads/uploads.service";
import { ZDigitalHumanSettings, type TDigitalHumanSettings } from "./apps.schema";
import { loadOpenableApp } from "./app-access.service";
import { MAX_SPEECH_CHARS, REPLY_SPEECH_TIMEOUT_MS, requesterOf } from "./app-speech.service";
import type { TConsumer, TUseSource } from "./app-entitlements.service";
import type { TAppForTurn } from "./app-uses.repository";
import type { TReplySpeaker } from "../turns/sinks/sse-sink";
import { AppError } from "../errors/app-error";
import { readFigureCheck } from "../digital/figures.schema";
import { keyOf } from "../digital/figure-view";
import { openInstance, recordInstanceFile } from "../digital/instances.service";
import { avatarOf, canLipsync, chooseVoice, USABLE_FIGURE_STATES } from "../digital/render-plan";
import * as repo from "../digital/app-stage.repository";
import type { TH5Stage, TStageBackground, TStageFigure, TStageOpen } from "../digital/app-stage.schema";

type TSceneApp = { id: string; type: string; ownerAccountId: string; settings: unknown };

/** The scene as stored; one from before a field existed reads with its default. */
export function readScene(settings: unknown): TDigitalHumanSettings {
  const parsed = ZDigitalHumanSettings.safeParse(settings ?? {});
  return parsed.success ? parsed.data : ZDigitalHumanSettings.parse({});
}

function versioned(key: string | null, preparedAt: string | null) {
  if (!key) return null;
  return preparedAt ? `${toPublicFileUrl(key)}?v=${Date.parse(preparedAt)}` : toPublicFileUrl(key);
}

function toStageFigure(row: repo.TStageFigureRow): TStageFigure | null {
  if (!USABLE_FIGURE_STATES.includes(row.state) || !row.loopFileKey) return null;
  const { preparedAt } = readFigureCheck(row.check);
  return {
    name: row.name,
    loopUrl: versioned(row.loopFileKey, preparedAt)!,
    posterUrl: versioned(row.posterFileKey, preparedAt),
    greetingUrl: row.greetingFileKey ? toPublicFileUrl(row.greetingFileKey) : null,
    key: keyOf(row),
  };
}

async function backgroundOf(ownerAccountId: string, scene: TDigitalHumanSettings): Promise<TStageBackground> {
  const item = scene.background_item_id ? await repo.findStageBackground(ownerAccountId, scene.background_item_id) : null;
  if (!item?.fileKey) return { kind: "color", color: scene.background_color };
  const meta = readMediaMeta(item.meta);
  // Phones get the web-sized picture and the phone-playable rendition when the worker made them.
  const key = item.kind === "video" ? (meta.play ?? item.fileKey) : (meta.web ?? item.fileKey);
  return { kind: item.kind, url: toPublicFileUrl(key) };
}

/** What the phone page shows of a digital-human app: read for its page, changes nothing. */
export async function readAppStage(app: TSceneApp): Promise<TH5Stage> {
  const scene = readScene(app.settings);
  const [row, background] = await Promise.all([
    scene.figure_id ? repo.findStageFigure(app.ownerAccountId, scene.figure_id) : null,
    backgroundOf(app.ownerAccountId, scene),
  ]);
  const figure = row ? toStageFigure(row) : null;
  const avatar = figure && row ? avatarOf(row) : null;
  return {
    orientation: scene.orientation,
    placement: scene.placement,
    background,
    figure,
    lipsync: avatar ? await canLipsync(app.ownerAccountId, avatar) : false,
  };
}

/**
 * The page shows the stage: the app's instance runs (started, and its first hour charged to the
 * owner, when none was running). An owner who cannot pay leaves it resting: the chat still answers.
 */
export async function openStage(consumer: TConsumer, appId: string): Promise<TStageOpen> {
  const app = await loadOpenableApp(appId, consumer, "h5");
  if (app.type !== "digital_human") throw new AppError("not_found");
  try {
    await openInstance({ appId: app.id, ownerAccountId: app.ownerAccountId });
    return { running: true };
  } catch (err) {
    if (err instanceof AppError && err.code === "app_owner_balance_insufficient") return { running: false };
    throw err;
  }
}

/** Speaks a digital-human app's finished reply on its phone page, in the scene's voice, for close.audio. */
export function stageSpeakerFor(app: TAppForTurn, caller: { consumer: TConsumer; source: TUseSource }): TReplySpeaker | undefined {
  if (caller.source !== "h5" || app.type !== "digital_human") return undefined;
  return async ({ messageId, content, signal }) => {
    const text = content.trim();
    if (!text || [...text].length > MAX_SPEECH_CHARS) return null;
    try {
      const instance = await openInstance({ appId: app.id, ownerAccountId: app.ownerAccountId });
      const voice = (await chooseVoice(app.ownerAccountId, readScene(app.settings).voice_id)) ?? { speaker: "", ownVoice: null };
      const spoken = await speakBilled({
        jobId: `${messageId}-speech`,
        payer: app.ownerAccountId,
        refusal: "app_owner_balance_insufficient",
        text,
        speaker: voice.speaker,
        ownVoice: voice.ownVoice,
        origin: "app",
        appId: app.id,
        originRef: messageId,
        requester: requesterOf(caller.consumer),
        signal: AbortSignal.any([signal, AbortSignal.timeout(REPLY_SPEECH_TIMEOUT_MS)]),
      });
      await recordInstanceFile(instance.id, { fileKey: spoken.fileKey, kind: "speech", bytes: spoken.bytes.length });
      return spoken.url;
    } catch (err) {
      logger.info({ err, appId: app.id, messageId }, "a digital human's reply was not spoken");
      return null;
    }
  };
}
