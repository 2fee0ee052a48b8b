// Keeps a scroll box at its bottom while content grows, unless the reader has scrolled up to read;
// scrolling back near the bottom resumes following.
import { useCallback, useLayoutEffect, useRef, type RefObject } from "react";

const NEAR_BOTTOM_PX = 48;
// useLayoutEffect warns during server rendering; the server has nothing to scroll anyway.
const useClientLayoutEffect = typeof window === "undefined" ? () => {} : useLayoutEffect;

export function useAutoscroll(box: RefObject<HTMLElement | null>, signal: unknown) {
  const following = useRef(true);
  const onScroll = useCallback(() => {
    const el = box.current;
    if (el) following.current = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
  }, [box]);
  useClientLayoutEffect(() => {
    const el = box.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, [signal]);
  /** After the user sends, follow again wherever they were. */
  const follow = useCallback(() => {
    following.current = true;
  }, []);
  return { onScroll, follow };
}
