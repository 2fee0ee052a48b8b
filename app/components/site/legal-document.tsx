import { useTranslation } from "react-i18next";
import { useShell } from "../shell/shell-context";

// A legal document in the "legal" namespace: <doc>.title, .updated, .summary.*, .intro.*, and
// .sections.<key>.title with .sections.<key>.body.<p1|i1|...>: keys starting with "i" are list items,
// the rest are paragraphs. The whole tree is read with returnObjects so adding a paragraph is a JSON edit.

type TBody = Record<string, string>;
type TSection = { title: string; body: TBody };

function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function Blocks({ body }: { body: TBody }) {
  const blocks: { kind: "p" | "ul"; items: [string, string][] }[] = [];
  for (const entry of Object.entries(body)) {
    const kind = /^i\d/.test(entry[0]) ? "ul" : "p";
    const last = blocks[blocks.length - 1];
    if (kind === "ul" && last?.kind === "ul") last.items.push(entry);
    else blocks.push({ kind, items: [entry] });
  }
  return (
    <>
      {blocks.map((b) =>
        b.kind === "p" ? (
          <p key={b.items[0][0]}>{b.items[0][1]}</p>
        ) : (
          <ul key={b.items[0][0]}>
            {b.items.map(([k, v]) => (
              <li key={k}>{v}</li>
            ))}
          </ul>
        ),
      )}
    </>
  );
}

export function LegalDocument({ doc }: { doc: "policy" | "terms" }) {
  const { t } = useTranslation("legal");
  const { contactPhone } = useShell();
  const vars = { phone: contactPhone };
  const sections = Object.entries(asRecord(t(`${doc}.sections`, { returnObjects: true, ...vars }))).map(([key, raw]) => {
    const s = asRecord(raw);
    return { key, title: String(s.title ?? ""), body: asRecord(s.body) as TBody } satisfies TSection & { key: string };
  });
  const summary = asRecord(t(`${doc}.summary`, { returnObjects: true, ...vars })) as TBody;
  const intro = asRecord(t(`${doc}.intro`, { returnObjects: true, ...vars })) as TBody;
  return (
    <div className="sp-legal">
      <nav className="sp-legal__toc" aria-label={t("toc")}>
        <b>{t("toc")}</b>
        <ol>
          {sections.map((s) => (
            <li key={s.key}>
              <a href={`#${doc}-${s.key}`}>{s.title}</a>
            </li>
          ))}
        </ol>
      </nav>
      <article className="sp-legal__doc" data-testid={`legal-${doc}`}>
        <div className="sp-legal__summary">
          <b>{t("summary_title")}</b>
          <ul>
            {Object.entries(summary).map(([k, v]) => (
              <li key={k}>{v}</li>
            ))}
          </ul>
        </div>
        <Blocks body={intro} />
        {sections.map((s) => (
          <section key={s.key} id={`${doc}-${s.key}`} className="sp-legal__section">
            <h2>{s.title}</h2>
            <Blocks body={s.body} />
          </section>
        ))}
      </article>
    </div>
  );
}
