import type { ReactNode } from "react";

type TPageHeroProps = {
  eyebrow?: ReactNode;
  title: ReactNode;
  lead?: ReactNode;
  actions?: ReactNode;
  /** Drawn on the right on wide screens, below the text on phones; without it the hero is centred. */
  visual?: ReactNode;
};

/** The opening band of the inner public pages (cases, solutions, partners). */
export function PageHero({ eyebrow, title, lead, actions, visual }: TPageHeroProps) {
  return (
    <section className="sp-hero">
      <div className={`sp-hero__inner${visual ? "" : " sp-hero__inner--single"}`}>
        <div>
          {eyebrow && <span className="sp-pill sp-pill--plain">{eyebrow}</span>}
          <h1 className="sp-hero__title">{title}</h1>
          {lead && <p className="sp-hero__lead">{lead}</p>}
          {actions && <div className="sp-hero__actions">{actions}</div>}
        </div>
        {visual && <div>{visual}</div>}
      </div>
    </section>
  );
}
