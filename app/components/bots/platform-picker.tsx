// The four platforms as cards to choose from (a radio group): personal WeChat, WeCom, DingTalk, Feishu.
import { useTranslation } from "react-i18next";
import { BOT_CHANNELS, type TBotChannel } from "../../../server/bots/bots.schema";
import { PlatformIcon } from "./platform-badge";

export function PlatformPicker({ value, onChange }: { value?: TBotChannel; onChange?: (v: TBotChannel) => void }) {
  const { t } = useTranslation("bots");
  return (
    <div className="bots-platforms" role="radiogroup" aria-label={t("create.platform")} data-testid="bot-platforms">
      {BOT_CHANNELS.map((c) => (
        <button
          key={c}
          type="button"
          role="radio"
          aria-checked={value === c}
          className={`bots-platforms__card${value === c ? " bots-platforms__card--on" : ""}`}
          onClick={() => onChange?.(c)}
          data-testid={`bot-platform-${c}`}
        >
          <PlatformIcon channel={c} size={32} />
          <span className="bots-platforms__text">
            <strong>{t(`channel.${c}`)}</strong>
            <small>{t(`channel_hint.${c}`)}</small>
          </span>
        </button>
      ))}
    </div>
  );
}
