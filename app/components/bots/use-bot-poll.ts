// Keeps a bot's page current: every ~3 s while it is being deployed or waits for its QR code to
// be scanned (the code itself changes), every 15 s otherwise (a login that lapsed, a message sent).
// A hidden tab does not poll.
import { useEffect, useRef } from "react";
import type { TBotState } from "../../../server/bots/bots.schema";

export const FAST_POLL_MS = 3_000;
export const SLOW_POLL_MS = 15_000;

export function useBotPoll(state: TBotState, enabled: boolean, tick: (slow: boolean) => Promise<void>) {
  const tickRef = useRef(tick);
  tickRef.current = tick;
  const fast = enabled && (state === "deploying" || state === "to_be_associated");
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const loop = () => {
      timer = setTimeout(
        async () => {
          if (!document.hidden) await tickRef.current(!fast).catch(() => undefined);
          if (!stopped) loop();
        },
        fast ? FAST_POLL_MS : SLOW_POLL_MS,
      );
    };
    loop();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [fast]);
}
