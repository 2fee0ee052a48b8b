// A small toast for the phone chat (antd's message would add its code to this lean page).
import { useCallback, useEffect, useRef, useState } from "react";

export function useToast() {
  const [text, setText] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const show = useCallback((message: string) => {
    clearTimeout(timer.current);
    setText(message);
    timer.current = setTimeout(() => setText(null), 2600);
  }, []);
  const node = text ? (
    <div className="h5-toast" role="status" data-testid="h5-toast">
      {text}
    </div>
  ) : null;
  return { show, node };
}
