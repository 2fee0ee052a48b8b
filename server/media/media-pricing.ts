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
