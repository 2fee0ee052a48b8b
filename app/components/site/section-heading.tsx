import type { ReactNode } from "react";

type TSectionHeadingProps = {
  eyebrow?: ReactNode;
  title: ReactNode;
  lead?: ReactNode;
  center?: boolean;
  light?: boolean;
  id?: string;
};

/** The eyebrow, title and lead that open every section of the public pages. */
export function SectionHeading({ eyebrow, title, lead, center = false, light = false, id }: TSectionHeadingProps) {
  const cls = ["sp-heading", center && "sp-heading--center", light && "sp-heading--light"].filter(Boolean).join(" ");
  return (
    <div className={cls}>
      {eyebrow && <div className="section__eyebrow">{eyebrow}</div>}
      <h2 className="section__title" id={id}>
        {title}
      </h2>
      {lead && <p className="section__lead">{lead}</p>}
    </div>
  );
}
