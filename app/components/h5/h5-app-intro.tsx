// /mobi/intro?app=: the app's introduction, developer, tags, what it takes and answers with, its
// free uses, and the button that starts the chat.
import { AudioOutlined, FileTextOutlined, MessageOutlined, PictureOutlined, SoundOutlined, VideoCameraOutlined } from "@ant-design/icons";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { TH5App } from "../../../server/apps/h5-view.service";
import { AppLink } from "../app-link";
import { H5AppCard } from "./h5-app-card";

const MODE_ICONS: Record<string, ReactNode> = {
  text: <FileTextOutlined />,
  voice: <AudioOutlined />,
  image: <PictureOutlined />,
  video: <VideoCameraOutlined />,
};

export function H5AppIntro({ app }: { app: TH5App }) {
  const { t } = useTranslation("h5");
  const modes = (list: string[]) =>
    list.map((m) => (
      <li key={m}>
        {MODE_ICONS[m] ?? null} {t(`intro.modes.${m}`, { defaultValue: m })}
      </li>
    ));
  return (
    <main className="h5-page" data-testid="h5-intro">
      <section className="h5-panel">
        <H5AppCard app={app} full />
      </section>
      <section className="h5-panel">
        <dl className="h5-facts">
          <dt>{t("intro.style")}</dt>
          <dd>{t(`intro.styles.${app.style}`)}</dd>
          <dt>{t("intro.input")}</dt>
          <dd>
            <ul className="h5-modes">{modes(app.inputModes)}</ul>
          </dd>
          <dt>{t("intro.output")}</dt>
          <dd>
            <ul className="h5-modes">
              {modes(app.outputModes)}
              {app.autoPlay && app.outputModes.includes("voice") && (
                <li>
                  <SoundOutlined /> {t("intro.auto_play")}
                </li>
              )}
            </ul>
          </dd>
          {app.freePerDay > 0 && (
            <>
              <dt>{t("intro.free")}</dt>
              <dd data-testid="h5-intro-free">{t("intro.free_per_day", { count: app.freePerDay })}</dd>
            </>
          )}
        </dl>
      </section>
      {app.recommendedQuestions.length > 0 && (
        <section className="h5-panel">
          <h2 className="h5-subtitle">{t("intro.questions")}</h2>
          <ul className="h5-intro-questions">
            {app.recommendedQuestions.map((q) => (
              <li key={q}>{q}</li>
            ))}
          </ul>
        </section>
      )}
      <div className="h5-actions h5-actions--sticky">
        <AppLink to={`/mobi/dialogue?app=${encodeURIComponent(app.id)}`} className="h5-btn h5-btn--primary h5-btn--block" data-testid="h5-intro-start">
          <MessageOutlined /> {t("intro.start")}
        </AppLink>
      </div>
    </main>
  );
}
