// The agent's variables in the H5 chat: a form before the first message (defaults filled in, a
// choice list for selection variables, required ones marked), then a one-line bar that opens it
// again. The values go with every turn; the browser checks them by the runtime's own rules
// (variable-values.ts), so a refusal names the same variable on both sides. Plain elements only:
// this page loads no antd.
import { EditOutlined } from "@ant-design/icons";
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { TVariable } from "../../../server/agents/agents.schema";
import { resolveVariableValues, type TVariableProblem } from "../../../server/agents/variable-values";
import "./h5-variables.css";

type TValues = Record<string, string>;

const defaultsOf = (variables: readonly TVariable[]): TValues => Object.fromEntries(variables.map((v) => [v.name, v.default ?? ""]));

// The values a visitor gave survive a trip away and back in the same tab (signing up, topping up at
// the cashier): asking again for what they just typed reads as the page having forgotten them.
const storageKey = (appId: string) => `zl_h5_vars:${appId}`;

function readStoredValues(appId: string): TValues | null {
  try {
    const parsed: unknown = JSON.parse(window.sessionStorage.getItem(storageKey(appId)) ?? "null");
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return null;
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === "string"));
  } catch {
    return null;
  }
}

function storeValues(appId: string, values: TValues) {
  try {
    window.sessionStorage.setItem(storageKey(appId), JSON.stringify(values));
  } catch {
    // Private mode or a full store: the values still work for this page.
  }
}

/** What the chat holds of its variables: the values in use, the form's draft and what is wrong with it. */
export function useH5Variables(variables: readonly TVariable[], appId: string) {
  const { t } = useTranslation("h5");
  const [values, setValues] = useState<TValues>(() => defaultsOf(variables));
  const [draft, setDraft] = useState<TValues>(values);
  const [open, setOpen] = useState(variables.length > 0);
  const [started, setStarted] = useState(false);
  const [problems, setProblems] = useState<TVariableProblem[]>([]);

  const describe = useCallback((p: TVariableProblem) => t(p.message, { ns: "errors", ...p.params }), [t]);

  /** The values to send with a turn; while the form is open its draft is taken (and refused) first. */
  const commit = useCallback((): { values: TValues } | { error: string; path: string } => {
    if (!variables.length) return { values: {} };
    const source = open ? draft : values;
    const resolved = resolveVariableValues(variables, source);
    if (!resolved.ok) {
      setDraft(source);
      setOpen(true);
      setProblems(resolved.problems);
      return { error: describe(resolved.problems[0]), path: resolved.problems[0].path };
    }
    setValues(resolved.values);
    setDraft(resolved.values);
    setProblems([]);
    setOpen(false);
    setStarted(true);
    storeValues(appId, resolved.values);
    return { values: resolved.values };
  }, [variables, open, draft, values, describe, appId]);

  const edit = useCallback((name: string, value: string) => {
    setDraft((d) => ({ ...d, [name]: value }));
    setProblems((list) => list.filter((p) => p.path !== name));
  }, []);

  const reopen = useCallback(() => {
    setDraft(values);
    setProblems([]);
    setOpen(true);
  }, [values]);

  const cancel = useCallback(() => {
    setProblems([]);
    setOpen(false);
  }, []);

  /** A stored dialogue's values (history): they become the ones in use. */
  const adopt = useCallback(
    (stored: TValues | undefined) => {
      const next = { ...defaultsOf(variables), ...(stored ?? {}) };
      setValues(next);
      setDraft(next);
      setProblems([]);
      setOpen(false);
      setStarted(true);
    },
    [variables],
  );

  // After hydration (the server cannot see the tab's storage): values kept from before this visit
  // are taken if they still pass the agent's rules, which may have changed since.
  useEffect(() => {
    if (!variables.length) return;
    const stored = readStoredValues(appId);
    if (!stored) return;
    const resolved = resolveVariableValues(variables, { ...defaultsOf(variables), ...stored });
    if (resolved.ok) adopt(resolved.values);
  }, [appId, variables, adopt]);

  return { variables, values, draft, open, started, problems, describe, commit, edit, reopen, cancel, adopt };
}

export type TH5VariablesState = ReturnType<typeof useH5Variables>;

export function H5Variables({ state, onStarted }: { state: TH5VariablesState; onStarted?: () => void }) {
  const { t } = useTranslation("h5");
  const { variables, values, draft, open, started, problems } = state;
  if (!variables.length) return null;

  if (!open) {
    const summary = variables
      .map((v) => values[v.name])
      .filter(Boolean)
      .join(" · ");
    return (
      <div className="h5-vars h5-vars--bar">
        <button type="button" className="h5-vars__bar" onClick={state.reopen} aria-expanded={false} data-testid="h5-variables-edit">
          <span className="h5-vars__bar-title">{t("variables.title")}</span>
          <span className="h5-vars__summary" data-testid="h5-variables-summary">
            {summary || t("variables.none")}
          </span>
          <span className="h5-vars__edit">
            <EditOutlined /> {t("variables.edit")}
          </span>
        </button>
      </div>
    );
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const result = state.commit();
    if ("error" in result) {
      document.getElementById(fieldId(result.path))?.focus();
      return;
    }
    onStarted?.();
  };

  return (
    <div className="h5-vars" data-testid="h5-variables">
      <form className="h5-vars__form" noValidate onSubmit={submit} aria-labelledby="h5-vars-title">
        <div className="h5-vars__head">
          <h2 id="h5-vars-title">{t("variables.title")}</h2>
          <span className="h5-muted">{t("variables.required_note")}</span>
        </div>
        <p className="h5-vars__lead">{t(started ? "variables.lead_edit" : "variables.lead")}</p>
        {variables.map((v) => {
          const problem = problems.find((p) => p.path === v.name);
          const id = fieldId(v.name);
          const hintId = `${id}-hint`;
          const errorId = `${id}-error`;
          const describedBy = [v.range ? hintId : "", problem ? errorId : ""].filter(Boolean).join(" ") || undefined;
          const common = {
            id,
            name: v.name,
            value: draft[v.name] ?? "",
            required: v.required,
            "aria-invalid": problem ? true : undefined,
            "aria-describedby": describedBy,
            "data-testid": `h5-variable-${v.name}`,
          };
          return (
            <div key={v.name} className={`h5-vars__field${problem ? " is-invalid" : ""}`}>
              <label htmlFor={id}>
                {v.name}
                {v.required && (
                  <span className="h5-vars__req" aria-hidden="true">
                    *
                  </span>
                )}
              </label>
              {v.type === "select" ? (
                <select {...common} onChange={(e) => state.edit(v.name, e.target.value)}>
                  <option value="">{v.prompt || t("variables.choose")}</option>
                  {v.options.map((o) => (
                    <option key={o} value={o}>
                      {o}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  {...common}
                  type="text"
                  placeholder={v.prompt || t("variables.fill")}
                  maxLength={v.range?.max ?? 500}
                  enterKeyHint="done"
                  onChange={(e) => state.edit(v.name, e.target.value)}
                />
              )}
              {v.range && (
                <small id={hintId} className="h5-muted">
                  {t("variables.length_hint", { min: v.range.min, max: v.range.max })}
                </small>
              )}
              {problem && (
                <p id={errorId} className="h5-vars__error" role="alert" data-testid="h5-variable-error">
                  {state.describe(problem)}
                </p>
              )}
            </div>
          );
        })}
        <div className="h5-vars__actions">
          {started && (
            <button type="button" className="h5-btn" onClick={state.cancel} data-testid="h5-variables-cancel">
              {t("variables.cancel")}
            </button>
          )}
          <button type="submit" className="h5-btn h5-btn--primary" data-testid="h5-variables-submit">
            {t(started ? "variables.save" : "variables.start")}
          </button>
        </div>
      </form>
    </div>
  );
}

const fieldId = (name: string) => `h5-var-${name}`;
