// A sheet over a phone page (plans, earlier dialogues, earlier runs): a backdrop that closes it, a
// panel with its title and a close button, and what the sheet holds.
import { CloseOutlined } from "@ant-design/icons";
import type { ReactNode } from "react";

type TProps = { title: string; closeLabel: string; testId: string; onClose: () => void; children: ReactNode };

export function H5Sheet({ title, closeLabel, testId, onClose, children }: TProps) {
  return (
    <div className="h5-sheet" role="dialog" aria-modal="true" aria-label={title} data-testid={testId}>
      <button type="button" className="h5-sheet__backdrop" aria-label={closeLabel} onClick={onClose} />
      <section className="h5-sheet__panel">
        <header className="h5-sheet__head">
          <h2>{title}</h2>
          <button type="button" className="h5-icon-btn" aria-label={closeLabel} onClick={onClose}>
            <CloseOutlined />
          </button>
        </header>
        {children}
      </section>
    </div>
  );
}
