// A new figure's check as it goes: measured, then prepared, then its result. A refusal lists each
// problem in words with the limit it missed (the filming video's and the greeting video's apart);
// a figure that passed leads on to its keying.
import { CheckCircleFilled, ScissorOutlined } from "@ant-design/icons";
import { Alert, Button, Result, Steps } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../app-link";
import type { TFilmingPurpose } from "../../../server/digital/digital.schema";
import { describeProblem } from "./filming-problems";
import type { TFigureView } from "./figures-client";

function ProblemList({ purpose, judged }: { purpose: TFilmingPurpose; judged: NonNullable<TFigureView["check"]["figure"]> }) {
  const { t } = useTranslation("figures");
  if (!judged.problems.length) return null;
  return (
    <div className="figures-problems" data-testid={`figure-problems-${purpose}`}>
      <div className="figures-problems__title">{t(`check.problems_of_${purpose}`)}</div>
      <ul>
        {judged.problems.map((problem) => {
          const text = describeProblem(problem, judged.facts, purpose);
          return (
            <li key={problem} data-testid="figure-problem" data-problem={problem}>
              {t(text.key, text.values)}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function currentStep(figure: TFigureView) {
  if (figure.state === "checking") return figure.stage === "preparing" ? 1 : 0;
  return 2;
}

export function FigureCheck({ figure }: { figure: TFigureView }) {
  const { t } = useTranslation("figures");
  const { t: te } = useTranslation("errors");
  const steps = [{ title: t("check.step_measure") }, { title: t("check.step_prepare") }, { title: t("check.step_done") }];
  if (figure.state === "checking")
    return (
      <div className="figures-check" data-testid="figure-check-running" aria-live="polite">
        <Steps size="small" current={currentStep(figure)} items={steps} responsive={false} className="figures-check__steps" />
        <p className="figures-check__note">{t(figure.stage === "preparing" ? "check.preparing_note" : "check.measuring_note")}</p>
      </div>
    );
  if (figure.state === "check_failed")
    return (
      <div className="figures-check" data-testid="figure-check-failed">
        <Alert
          type="error"
          showIcon
          message={t("check.failed_title")}
          description={
            <>
              {figure.errorCode && <p>{te(figure.errorCode, { defaultValue: t("check.failed_generic") })}</p>}
              {figure.check.figure && <ProblemList purpose="figure" judged={figure.check.figure} />}
              {figure.check.greeting && <ProblemList purpose="greeting" judged={figure.check.greeting} />}
              <p className="figures-check__again">{t("check.try_again")}</p>
            </>
          }
        />
      </div>
    );
  return (
    <Result
      status="success"
      icon={<CheckCircleFilled />}
      title={t("check.passed_title")}
      subTitle={t("check.passed_note")}
      data-testid="figure-check-passed"
      extra={
        <AppLink to={`/CreateCharacter?id=${encodeURIComponent(figure.id)}`}>
          <Button type="primary" icon={<ScissorOutlined />} data-testid="figure-go-key">
            {t("check.go_key")}
          </Button>
        </AppLink>
      }
    />
  );
}
