import type { CSSProperties, ReactNode } from "react";

export type TTone = "indigo" | "cyan" | "violet" | "emerald" | "amber" | "rose" | "sky" | "slate";

export function IconBadge({ icon, tone = "indigo", small = false }: { icon: ReactNode; tone?: TTone; small?: boolean }) {
  return <span className={`sp-icon${small ? " sp-icon--sm" : ""} tone-${tone}`}>{icon}</span>;
}

type TIconCardProps = {
  icon: ReactNode;
  tone?: TTone;
  title: ReactNode;
  desc: ReactNode;
  extra?: ReactNode;
  /** Icon beside the text instead of above it. */
  row?: boolean;
};

export function IconCard({ icon, tone, title, desc, extra, row = false }: TIconCardProps) {
  if (row) {
    return (
      <div className="sp-card sp-card--row">
        <IconBadge icon={icon} tone={tone} />
        <div>
          <h3 className="sp-card__title">{title}</h3>
          <p className="sp-card__desc">{desc}</p>
          {extra && <div className="sp-card__extra">{extra}</div>}
        </div>
      </div>
    );
  }
  return (
    <div className="sp-card">
      <IconBadge icon={icon} tone={tone} />
      <h3 className="sp-card__title">{title}</h3>
      <p className="sp-card__desc">{desc}</p>
      {extra && <div className="sp-card__extra">{extra}</div>}
    </div>
  );
}

/** A responsive grid: `cols` on wide screens, two on tablets, one on phones. */
export function CardGrid({ cols = 3, children }: { cols?: number; children: ReactNode }) {
  return (
    <div className="sp-grid" style={{ "--sp-cols": cols } as CSSProperties}>
      {children}
    </div>
  );
}
