// Replies streaming in this process, so a stop request served here cancels at once; a stop served
// by another instance reaches the stream through the row's status (chat-stream polls it).
const stoppables = new Map<string, () => void>();

export function registerStoppable(messageId: string, stop: () => void) {
  stoppables.set(messageId, stop);
}

export function forgetStoppable(messageId: string) {
  stoppables.delete(messageId);
}

/** True when the reply was streaming here and is now being stopped. */
export function stopLocally(messageId: string) {
  const stop = stoppables.get(messageId);
  stop?.();
  return Boolean(stop);
}
