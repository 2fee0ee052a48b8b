import type { ReactNode } from "react";

/** The gradient call-to-action panel that closes a public page. */
export function CtaBand({ title, lead, actions }: { title: ReactNode; lead?: ReactNode; actions: ReactNode }) {
  return (
    <section className="sp-cta">
      <div className="sp-cta__inner">
        <div>
          <h2>{title}</h2>
          {lead && <p>{lead}</p>}
        </div>
        <div className="sp-cta__actions">{actions}</div>
      </div>
    </section>
  );
}
