// /video_generation: a video from a first frame (and a tail frame, when the model takes one), a
// prompt and a camera motion, 5 or 10 seconds. The price shows before the job starts; the jobs
// started here follow live beside the form and play when done. Leaving the page lets running jobs
// go on in the background.
import { useSearchParams } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { chosenPicture } from "../../components/generation/chosen-picture";
import { ModelsGate, useMediaModels } from "../../components/generation/model-field";
import { RecentJobs, revealJob } from "../../components/generation/recent-jobs";
import { useLiveJobs } from "../../components/generation/use-live-jobs";
import { VideoJobForm } from "../../components/generation/video-job-form";
import "../../components/media/media.css";
import "../../components/generation/generation.css";

export const handle = { i18n: ["generation", "media"] };

export default function VideoGenerationPage() {
  const { t } = useTranslation("generation");
  const { models, error } = useMediaModels("video");
  const live = useLiveJobs({ backgroundOnLeave: true });
  const [params] = useSearchParams();
  // A picture chosen elsewhere (the library's picker, a drawing in the gallery) arrives as the first frame.
  const firstFrame = useMemo(() => chosenPicture(params), [params]);
  return (
    <div className="generation-page" data-testid="video-generation-page">
      <h1 className="console__title">{t("title.video_generation")}</h1>
      <p className="console__hint">{t("intro.video")}</p>
      <ModelsGate kind="video" models={models} error={error}>
        {() => (
          <div className="generation-layout">
            <div className="generation-layout__form">
              <VideoJobForm models={models ?? []} firstFrame={firstFrame} onSubmitted={(job) => (live.put(job), revealJob(job.id))} />
            </div>
            <RecentJobs kind="video" models={models ?? []} live={live} />
          </div>
        )}
      </ModelsGate>
    </div>
  );
}
