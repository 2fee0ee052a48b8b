import type { CSSProperties, ReactNode } from "react";

export type TStripStep = { key: string; title: ReactNode; desc: ReactNode };

/** Numbered steps laid out as cards: a row on wide screens, a column on phones. */
export function StepStrip({ steps }: { steps: TStripStep[] }) {
  return (
    <ol className="sp-steps" style={{ "--sp-cols": Math.min(steps.length, 4), listStyle: "none", padding: 0, margin: 0 } as CSSProperties}>
      {steps.map((s, i) => (
        <li key={s.key} className="sp-step">
          <span className="sp-step__num">{i + 1}</span>
          <h3>{s.title}</h3>
          <p>{s.desc}</p>
        </li>
      ))}
    </ol>
  );
}
