// What a refused filming video's problems say, with the measured value beside the limit ("The video
// is 480p; at least 720p"): the i18n key (figures:filming.problems.<problem>) and its values.
import { FILMING_LIMITS, GREEN_SHARE_MIN, type TFilmingFacts, type TFilmingProblem, type TFilmingPurpose } from "../../../server/digital/digital.schema";

export type TProblemText = { key: string; values: Record<string, string | number> };

const seconds = (ms: number | null) => (ms === null ? "?" : (ms / 1000).toFixed(1).replace(/\.0$/, ""));
const minutes = (ms: number) => (ms / 60_000).toFixed(1).replace(/\.0$/, "");

export function describeProblem(problem: TFilmingProblem, facts: TFilmingFacts, purpose: TFilmingPurpose): TProblemText {
  const limits = FILMING_LIMITS[purpose];
  const key = `filming.problems.${problem}`;
  switch (problem) {
    case "too_short":
      return { key, values: { value: seconds(facts.durationMs), min: seconds(limits.minMs) } };
    case "too_long":
      return { key, values: { value: minutes(facts.durationMs ?? 0), max: minutes(limits.maxMs) } };
    case "low_resolution":
      return { key, values: { value: Math.min(facts.width ?? 0, facts.height ?? 0), min: limits.minShortSide } };
    case "low_frame_rate":
      return { key, values: { value: Math.round((facts.fps ?? 0) * 10) / 10, min: limits.minFps } };
    case "not_green_screen":
      return { key, values: { value: Math.round(facts.greenShare * 100), min: Math.round(GREEN_SHARE_MIN * 100) } };
    default:
      return { key, values: {} };
  }
}
