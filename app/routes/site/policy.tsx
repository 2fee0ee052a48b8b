import { Button } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { LegalDocument } from "../../components/site/legal-document";
import { PageHero } from "../../components/site/page-hero";
import { pageMeta } from "../../components/site/page-meta";
import "../../styles/site-pages.css";

export const handle = { i18n: ["legal"] };

export const meta = pageMeta("Zelin · Privacy policy");

export default function PolicyPage() {
  const { t } = useTranslation("legal");
  return (
    <div className="sp-page" data-testid="page-policy">
      <PageHero
        eyebrow={t("eyebrow")}
        title={t("policy.title")}
        lead={<span className="sp-legal__meta">{t("policy.updated")}</span>}
        actions={
          <AppLink to="/terms">
            <Button>{t("policy.see_other")}</Button>
          </AppLink>
        }
      />
      <LegalDocument doc="policy" />
    </div>
  );
}
