// /Createdigital: a new figure. The filming advice beside the upload (the video, an optional greeting
// video, a name); once sent, the page follows the figure's check (/Createdigital?id=<figure>, so a
// reload or a card's "see the check" comes back to it) and shows its result: each problem in words
// with its limit, or the way on to keying it.
import { ArrowLeftOutlined } from "@ant-design/icons";
import { useSearchParams } from "@remix-run/react";
import { Alert, Button, Skeleton } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { FigureCheck } from "../../components/figures/figure-check";
import { FigureUploadForm } from "../../components/figures/figure-upload-form";
import { FilmingAdvice } from "../../components/figures/filming-advice";
import { useFigure } from "../../components/figures/use-figure";
import "../../components/figures/figures.css";

export const handle = { i18n: ["figures"] };

function Watching({ id }: { id: string }) {
  const { t } = useTranslation("figures");
  const { figure, error, loading } = useFigure(id);
  if (loading) return <Skeleton active />;
  if (!figure) return <Alert type="error" showIcon message={error ?? t("check.not_found")} data-testid="figure-missing" />;
  return (
    <div className="figures-panel" data-testid="figure-watch" data-id={figure.id}>
      <h2 className="figures-section__title">{t(figure.state === "checking" ? "check.title" : "check.result_title", { name: figure.name })}</h2>
      <FigureCheck figure={figure} />
      {figure.state === "check_failed" && (
        <AppLink to="/Createdigital?id=" className="figures-panel__again">
          <Button data-testid="figure-upload-again">{t("check.upload_again")}</Button>
        </AppLink>
      )}
    </div>
  );
}

export default function CreateDigitalPage() {
  const { t } = useTranslation("figures");
  const [params, setParams] = useSearchParams();
  const id = params.get("id") || null;
  return (
    <div className="figures-page" data-testid="create-digital-page">
      <div className="figures-page__head">
        <h1 className="console__title">{t("title.create")}</h1>
        <AppLink to="/digital">
          <Button icon={<ArrowLeftOutlined />}>{t("list.back")}</Button>
        </AppLink>
      </div>
      <div className="figures-layout">
        <div className="figures-layout__main">
          {id ? (
            <Watching id={id} />
          ) : (
            <div className="figures-panel">
              <h2 className="figures-section__title">{t("upload.title")}</h2>
              <FigureUploadForm onUploaded={(figure) => setParams((p) => (p.set("id", figure.id), p), { replace: true })} />
            </div>
          )}
        </div>
        <aside className="figures-layout__side">
          <FilmingAdvice />
        </aside>
      </div>
    </div>
  );
}
