import { useTranslation } from "react-i18next";

export default function Page() {
  const { t } = useTranslation();
  return <section className="section"><h1 className="section__title">{t("brand.slogan")}</h1></section>;
}
