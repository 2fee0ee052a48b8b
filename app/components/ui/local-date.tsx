import { useEffect, useState } from "react";

/**
 * A date in the reader's own locale and time zone. The server cannot know either, so the first
 * render (server and hydration) shows the ISO date and the browser replaces it after mounting;
 * otherwise the two renders would differ and React would throw the page's hydration away.
 */
export function LocalDate({ iso, withTime = false }: { iso: string; withTime?: boolean }) {
  const [text, setText] = useState(withTime ? `${iso.slice(0, 16).replace("T", " ")} UTC` : iso.slice(0, 10));
  useEffect(() => {
    const d = new Date(iso);
    setText(withTime ? d.toLocaleString() : d.toLocaleDateString());
  }, [iso, withTime]);
  return <time dateTime={iso}>{text}</time>;
}
