// Small shared pieces of the training set pages: where each type is edited, numbers in the page's
// language, and which actions a state offers (from the lifecycle table the server applies).
import { HTML_LANG, isLanguage } from "../../i18n/config";
import { canMoveTrainingSet } from "../../../server/knowledge/training-set-lifecycle";
import {
  TRAINING_SET_ACTIONS,
  type TTrainingSetAction,
  type TTrainingSetStateView,
  type TTrainingSetType,
} from "../../../server/knowledge/training-sets.schema";

export function editPathOf(set: { id: string; type: TTrainingSetType }) {
  const id = encodeURIComponent(set.id);
  if (set.type === "standard") return `/create_normal_train?id=${id}`;
  if (set.type === "smart") return `/create_train?id=${id}`;
  return `/database?id=${id}`;
}

export function formatNumber(n: number, lng: string) {
  return new Intl.NumberFormat(isLanguage(lng) ? HTML_LANG[lng] : "en").format(n);
}

export function formatBytes(bytes: number, lng: string) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${formatNumber(Math.round(bytes / 102.4) / 10, lng)} KB`;
  return `${formatNumber(Math.round(bytes / 104857.6) / 10, lng)} MB`;
}

/**
 * The owner's actions a set in this state allows. While the storage service is paused only those
 * that take a set out of use remain; database sets are managed on their own page.
 */
export function actionsFor(state: TTrainingSetStateView, type: TTrainingSetType): TTrainingSetAction[] {
  if (type === "database") return [];
  if (state === "unavailable") return [];
  return TRAINING_SET_ACTIONS.filter((a) => canMoveTrainingSet(state, a));
}

export const STATE_COLORS: Record<TTrainingSetStateView, string> = {
  training: "processing",
  done: "success",
  failed: "error",
  stopped: "warning",
  disabled: "default",
  unavailable: "volcano",
};
