import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { uiLocale } from "../../i18n/config";

/**
 * A date in the page's language and the reader's time zone. The server cannot know either, so the first
 * render (server and hydration) shows the ISO date and the browser replaces it after mounting;
 * otherwise the two renders would differ and React would throw the page's hydration away.
 */
export function LocalDate({ iso, withTime = false }: { iso: string; withTime?: boolean }) {
  const { i18n } = useTranslation();
  const locale = uiLocale(i18n.language);
  const [text, setText] = useState(withTime ? `${iso.slice(0, 16).replace("T", " ")} UTC` : iso.slice(0, 10));
  useEffect(() => {
    const d = new Date(iso);
    setText(withTime ? d.toLocaleString(locale) : d.toLocaleDateString(locale));
  }, [iso, withTime, locale]);
  return <time dateTime={iso}>{text}</time>;
}
