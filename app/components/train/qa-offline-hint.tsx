// How to phrase Q&A items for the offline model: it has no language model and answers only when a
// visitor's question shares most of its words with an item's question (retrieval.service's
// QA_MATCH_THRESHOLD), so the wording of questions decides what it can answer.
import { Alert } from "antd";
import { useTranslation } from "react-i18next";

export function QaOfflineHint() {
  const { t } = useTranslation("train");
  return (
    <Alert
      type="info"
      showIcon
      title={t("qa.offline_hint.title")}
      description={
        <ul className="train-offline-hint__list">
          <li>{t("qa.offline_hint.words")}</li>
          <li>{t("qa.offline_hint.one_question")}</li>
          <li>{t("qa.offline_hint.variants")}</li>
        </ul>
      }
      data-testid="qa-offline-hint"
    />
  );
}
