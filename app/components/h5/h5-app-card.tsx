// The app's card on /share and /mobi/intro: icon, name, developer, tags and introduction.
import { useTranslation } from "react-i18next";
import type { TH5App } from "../../../server/apps/h5-view.service";

/** The English name and introduction where the reader's language is English and they exist. */
export function useAppText(app: Pick<TH5App, "name" | "nameEn" | "introduction" | "introductionEn">) {
  const { i18n } = useTranslation();
  const english = i18n.language === "en";
  return { name: (english && app.nameEn) || app.name, introduction: (english && app.introductionEn) || app.introduction };
}

export function H5AppCard({ app, full = false }: { app: TH5App; full?: boolean }) {
  const { t } = useTranslation("h5");
  const text = useAppText(app);
  return (
    <article className="h5-card" data-testid="h5-app-card">
      <header className="h5-card__head">
        <img className="h5-card__icon" src={app.iconUrl} alt="" width={64} height={64} />
        <div>
          <h1 className="h5-card__name">{text.name}</h1>
          <p className="h5-card__dev">
            {app.developer.avatarUrl && <img src={app.developer.avatarUrl} alt="" width={18} height={18} />}
            {t("card.developer", { name: app.developer.nickname })}
          </p>
        </div>
      </header>
      {(app.category || app.tags.length > 0) && (
        <ul className="h5-tags" aria-label={t("card.tags")}>
          {app.category && <li className="h5-tags__category">{app.category}</li>}
          {app.tags.map((tag) => (
            <li key={tag}>{tag}</li>
          ))}
        </ul>
      )}
      {text.introduction && <p className={`h5-card__intro${full ? " is-full" : ""}`}>{text.introduction}</p>}
    </article>
  );
}
