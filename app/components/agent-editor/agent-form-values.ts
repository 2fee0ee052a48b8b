// The editor's form speaks yuan and JSON text where the schema speaks micro-Z and objects. These
// conversions are the one place that knows both shapes, both ways, and how field paths map.
import { MICRO } from "../../../server/accounts/editions";
import { ZAgentInput, ZAgentParameters, type TAgentInput, type TAgentParameters, type TVariable } from "../../../server/agents/agents.schema";

export type TVariableFormValues = Omit<TVariable, "range"> & { range?: { min?: number | null; max?: number | null } };

export type TAgentFormValues = Omit<TAgentInput, "sale_price_micro" | "use_price_micro" | "purchase_price_micro" | "parameters" | "variables"> & {
  sale_price: number;
  use_price: number;
  purchase_price: number;
  variables: TVariableFormValues[];
  parameters: Omit<TAgentParameters, "logit_bias" | "top_k"> & { top_k?: number | null; logit_bias: string };
};

const PRICE_FIELDS = [
  ["sale_price", "sale_price_micro"],
  ["use_price", "use_price_micro"],
  ["purchase_price", "purchase_price_micro"],
] as const;

export const toYuan = (micro: number) => micro / MICRO;
export const toMicro = (yuan: number | null | undefined) => Math.round((yuan ?? 0) * MICRO);

/** A new agent: the schema's own defaults, so the form and the server start from the same values. */
export function newAgentInput(modelKey = ""): TAgentInput {
  return { ...ZAgentInput.parse({ name: "x", introduction: "x", model_key: "x" }), name: "", introduction: "", model_key: modelKey };
}

export function toFormValues(input: TAgentInput): TAgentFormValues {
  const { sale_price_micro, use_price_micro, purchase_price_micro, parameters, variables, ...rest } = input;
  return {
    ...rest,
    sale_price: toYuan(sale_price_micro),
    use_price: toYuan(use_price_micro),
    purchase_price: toYuan(purchase_price_micro),
    variables: variables.map((v) => ({ ...v, range: v.range ?? { min: null, max: null } })),
    parameters: {
      ...parameters,
      top_k: parameters.top_k ?? null,
      logit_bias: Object.keys(parameters.logit_bias).length ? JSON.stringify(parameters.logit_bias) : "",
    },
  };
}

/** Logit bias is typed as JSON; anything that is not a JSON object is refused by the schema. */
export function parseLogitBias(text: string | undefined): unknown {
  if (!text?.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export function checkLogitBias(text: string | undefined): string | null {
  const parsed = parseLogitBias(text);
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return "validation.logit_bias";
  return ZAgentParameters.shape.logit_bias.safeParse(parsed).success ? null : "validation.logit_bias";
}

/** A cleared number input holds null; for the schema an absent value means "use the default". */
function dropNulls<T extends object>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== null)) as T;
}

/** What the form holds, in the shape the server parses (it still checks everything). */
export function toAgentInput(values: TAgentFormValues): unknown {
  const { sale_price, use_price, purchase_price, parameters, variables, ...rest } = dropNulls(values);
  return {
    ...rest,
    avatar_url: rest.avatar_url || undefined,
    sale_price_micro: toMicro(sale_price),
    use_price_micro: toMicro(use_price),
    purchase_price_micro: toMicro(purchase_price),
    variables: (variables ?? []).map((v) => {
      const { range, ...variable } = v;
      const hasRange = range && (range.min != null || range.max != null);
      return {
        ...variable,
        options: variable.type === "select" ? (variable.options ?? []) : [],
        range: hasRange ? { min: range.min ?? 0, max: range.max ?? undefined } : undefined,
      };
    }),
    parameters: {
      ...dropNulls(parameters),
      top_k: parameters.top_k ?? undefined,
      stop: parameters.stop ?? [],
      logit_bias: parseLogitBias(parameters.logit_bias) ?? {},
    },
  };
}

/**
 * The variables as the debug chat asks for them, while the form is being edited: rows without a
 * name yet are left out, and a range counts once its maximum is typed (saving refuses it before).
 */
export function toDebugVariables(rows: TVariableFormValues[] | undefined): TVariable[] {
  const seen = new Set<string>();
  return (rows ?? []).flatMap((v) => {
    const name = v?.name?.trim();
    if (!name || seen.has(name)) return [];
    seen.add(name);
    const range = v.range?.max != null ? { min: v.range.min ?? 0, max: v.range.max } : undefined;
    const options = v.type === "select" ? (v.options ?? []) : [];
    return [
      {
        name,
        prompt: v.prompt ?? "",
        required: Boolean(v.required),
        type: v.type ?? "fill",
        options,
        default: v.default ?? "",
        range,
        associated: v.associated ?? [],
      },
    ];
  });
}

/**
 * A schema or server field path ("agent.variables.0.name", "sale_price_micro") as the form's
 * field name (["variables", 0, "name"], ["sale_price"]).
 */
export function toFormFieldName(path: string): (string | number)[] {
  const parts = path
    .replace(/^agent\./, "")
    .split(".")
    .filter(Boolean)
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  const price = PRICE_FIELDS.find(([, micro]) => micro === parts[0]);
  if (price) return [price[0]];
  if (parts[0] === "parameters" && parts[1] === "logit_bias") return ["parameters", "logit_bias"];
  // Cross-field refusals land on the field the user fixes.
  if (parts[0] === "variables" && parts.length === 3 && parts[2] === "range") return [...parts, "max"];
  if (parts[0] === "variables" && (parts[2] === "options" || parts[2] === "associated")) return parts.slice(0, 3);
  return parts;
}

export type TFieldError = { name: (string | number)[]; errors: string[] };

/** The schema's refusals of the whole form, grouped per field, messages still as keys. */
export function checkWholeForm(values: TAgentFormValues): TFieldError[] {
  const result = ZAgentInput.safeParse(toAgentInput(values));
  if (result.success) return [];
  return groupFieldErrors(result.error.issues.map((i) => ({ path: placeListIssue(i.path.join("."), i.message, values), message: i.message })));
}

/** A refusal of the variable list as a whole belongs on the name that repeats an earlier one. */
function placeListIssue(path: string, message: string, values: TAgentFormValues) {
  if (path !== "variables" || message !== "validation.variable_duplicate") return path;
  const names = (values.variables ?? []).map((v) => v?.name?.trim());
  const repeat = names.findIndex((n, i) => names.indexOf(n) !== i);
  return repeat >= 0 ? `variables.${repeat}.name` : path;
}

export function groupFieldErrors(fields: { path: string; message: string }[]): TFieldError[] {
  const byName = new Map<string, TFieldError>();
  for (const f of fields) {
    const name = toFormFieldName(f.path);
    const key = JSON.stringify(name);
    const entry = byName.get(key) ?? { name, errors: [] };
    if (!entry.errors.includes(f.message)) entry.errors.push(f.message);
    byName.set(key, entry);
  }
  return [...byName.values()];
}

/** The next patch number above the highest version that left draft ("1.2.3" → "1.2.4"). */
export function bumpVersion(version: string) {
  const parts = version.split(".").map(Number);
  while (parts.length < 3) parts.push(0);
  parts[parts.length - 1] += 1;
  return parts.join(".");
}
