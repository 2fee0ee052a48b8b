import { Button } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { LegalDocument } from "../../components/site/legal-document";
import { PageHero } from "../../components/site/page-hero";
import { pageMeta } from "../../components/site/page-meta";
import "../../styles/site-pages.css";

export const handle = { i18n: ["legal"] };

export const meta = pageMeta("Zelin · User agreement");

export default function TermsPage() {
  const { t } = useTranslation("legal");
  return (
    <div className="sp-page" data-testid="page-terms">
      <PageHero
        eyebrow={t("eyebrow")}
        title={t("terms.title")}
        lead={<span className="sp-legal__meta">{t("terms.updated")}</span>}
        actions={
          <AppLink to="/policy">
            <Button>{t("terms.see_other")}</Button>
          </AppLink>
        }
      />
      <LegalDocument doc="terms" />
    </div>
  );
}
