// While an administrator's screen-lock list has screen_control 1, every open page is
// covered by the lock image; a click only reminds the user to stay focused. Polled, so it reaches
// pages on every web instance within a few seconds.
import { App } from "antd";
import { useTranslation } from "react-i18next";
import type { TScreenLock } from "./screen-lock-poll";

/** The lock image over the page; `lock` comes from useScreenLock (screen-lock-poll.ts). */
export function ScreenLockOverlay({ lock }: { lock: TScreenLock | null }) {
  const { t } = useTranslation();
  const { message } = App.useApp();

  if (lock?.screen_control !== 1) return null;
  const item = lock.items.find((i) => i.screen_control === 1) ?? lock.items[0];
  const remind = () => void message.info({ content: t("shell.screen_lock.toast"), key: "screen-lock" });
  return (
    <div className="screen-lock" role="dialog" aria-modal="true" aria-label={item?.img_name} data-testid="screen-lock" onClick={remind}>
      {item && <img src={item.img_url} alt={item.img_name} className="screen-lock__image" />}
      <button type="button" className="screen-lock__exit" data-testid="screen-lock-exit">
        {t("shell.screen_lock.exit")}
      </button>
    </div>
  );
}
