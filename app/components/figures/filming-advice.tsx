// How to film a figure, shown where the video is chosen: the pauses, the talk, the gestures, the screen.
import { BulbOutlined } from "@ant-design/icons";
import { useTranslation } from "react-i18next";
import { FILMING_ADVICE, FILMING_LIMITS } from "../../../server/digital/digital.schema";
import { toMegabytes } from "../../../server/uploads/upload-limits";

export function FilmingAdvice() {
  const { t } = useTranslation("figures");
  const limits = FILMING_LIMITS.figure;
  const items = [
    t("advice.silence", { seconds: FILMING_ADVICE.silenceSeconds }),
    t("advice.talk", { min: FILMING_ADVICE.talkMinutes[0], max: FILMING_ADVICE.talkMinutes[1] }),
    t("advice.gestures", { seconds: FILMING_ADVICE.gestureHoldSeconds }),
    t("advice.screen", { metres: FILMING_ADVICE.screenDistanceMetres }),
    t("advice.file", { mb: toMegabytes(limits.maxBytes), side: limits.minShortSide, fps: limits.minFps }),
  ];
  return (
    <section className="figures-advice" data-testid="filming-advice" aria-labelledby="filming-advice-title">
      <h2 id="filming-advice-title" className="figures-advice__title">
        <BulbOutlined aria-hidden /> {t("advice.title")}
      </h2>
      <ol className="figures-advice__list">
        {items.map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ol>
    </section>
  );
}
