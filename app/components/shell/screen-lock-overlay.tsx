// SPEC 1/4: while an administrator's screen-lock list has screen_control 1, every open page is
// covered by the lock image; a click only reminds the user to stay focused. Polled, so it reaches
// pages on every web instance within a few seconds.
import { App } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiRequest } from "../../lib/api-client";

type TScreenLock = { screen_control: 0 | 1; items: { img_name: string; img_url: string; screen_control: 0 | 1 }[] };
export const SCREEN_LOCK_POLL_MS = 3000;

export function ScreenLockOverlay() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [lock, setLock] = useState<TScreenLock | null>(null);

  useEffect(() => {
    let stopped = false;
    const poll = async () => {
      if (document.visibilityState !== "hidden") {
        const next = await apiRequest<TScreenLock>("/api/v1/system/screen_lock").catch(() => null);
        if (!stopped && next) setLock(next);
      }
    };
    void poll();
    const timer = setInterval(poll, SCREEN_LOCK_POLL_MS);
    const onVisible = () => document.visibilityState === "visible" && void poll();
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, []);

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
