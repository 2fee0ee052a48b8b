// What a generation costs, in micro-Z, from the model's unit price: an image model charges per
// picture, a video model per second (the pro mode twice that), a voice model per 1000 characters
// (the platform's speech price when the model sets none). No server imports: the screens show the
// same price before the user submits.
export const PRO_VIDEO_FACTOR = 2;

export function priceImageJob(unitPriceMicro: number, count: number) {
  return unitPriceMicro * count;
}

export function priceVideoJob(unitPriceMicro: number, seconds: number, mode: "std" | "pro") {
  return unitPriceMicro * seconds * (mode === "pro" ? PRO_VIDEO_FACTOR : 1);
}

/** Per 1000 characters, rounded up to the micro-Z. */
export function priceSpeechByUnit(unitPriceMicro: number, chars: number) {
  return Math.ceil((unitPriceMicro * chars) / 1000);
}

/** Lip-sync is charged 0.5 Z for every started 5 seconds of audio. */
export const LIPSYNC_PRICE_MICRO_PER_5S = 500_000;
export const priceLipsync = (durationMs: number) => Math.max(1, Math.ceil(durationMs / 5_000)) * LIPSYNC_PRICE_MICRO_PER_5S;
/**
 * A figure's avatar training order, paid when ordered: held, charged when the provider delivers the
 * avatar, released when it fails.
 */
export const AVATAR_TRAINING_PRICE_MICRO = 199_000_000;
