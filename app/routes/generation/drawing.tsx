// /drawing: pictures from a prompt. The form offers what the chosen image model can do and shows the
// price before the job starts; the jobs started here follow live beside it, with their pictures and
// downloads when done. Leaving the page lets running jobs go on in the background.
import { useSearchParams } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ImageJobForm } from "../../components/generation/image-job-form";
import { ModelsGate, useMediaModels } from "../../components/generation/model-field";
import { RecentJobs, revealJob } from "../../components/generation/recent-jobs";
import { useLiveJobs } from "../../components/generation/use-live-jobs";
import { chosenPicture } from "../../components/generation/chosen-picture";
import "../../components/media/media.css";
import "../../components/generation/generation.css";

export const handle = { i18n: ["generation", "media"] };

export default function DrawingPage() {
  const { t } = useTranslation("generation");
  const { models, error } = useMediaModels("image");
  const live = useLiveJobs({ backgroundOnLeave: true });
  const [params] = useSearchParams();
  // A picture chosen on the library's picker (/warehouse?return=/drawing) arrives as the reference.
  const reference = useMemo(() => chosenPicture(params), [params]);
  return (
    <div className="generation-page" data-testid="drawing-page">
      <h1 className="console__title">{t("title.drawing")}</h1>
      <p className="console__hint">{t("intro.drawing")}</p>
      <ModelsGate kind="image" models={models} error={error}>
        {() => (
          <div className="generation-layout">
            <div className="generation-layout__form">
              <ImageJobForm models={models ?? []} reference={reference} onSubmitted={(job) => (live.put(job), revealJob(job.id))} />
            </div>
            <RecentJobs kind="image" models={models ?? []} live={live} />
          </div>
        )}
      </ModelsGate>
    </div>
  );
}
