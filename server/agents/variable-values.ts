// The rules a variable's value meets before a turn runs: required ones filled (a default counts),
// a selection one of its options, a length inside its range. The runtime refuses a turn by them and
// the chat pages check them before sending, so both name the same variable with the same message.
// No imports beyond types: the phone chat bundles this file.
import type { TVariable } from "./agents.schema";

export type TVariableSpec = Pick<TVariable, "name" | "required" | "type" | "options" | "default" | "range">;

/** A refused value: `message` is an errors-namespace key that names the variable through `params`. */
export type TVariableProblem = { path: string; message: string; params: { name: string; min?: number; max?: number } };

/** The value a turn uses: what was given, trimmed, else the variable's default. */
export function pickVariableValue(v: TVariableSpec, values: Record<string, string | undefined>): string {
  return (values[v.name] ?? "").trim() || v.default;
}

/** Every variable whose value breaks a rule, in the agent's order (the first is the one to show). */
export function findVariableProblems(variables: readonly TVariableSpec[], values: Record<string, string | undefined>): TVariableProblem[] {
  const problems: TVariableProblem[] = [];
  for (const v of variables) {
    const value = pickVariableValue(v, values);
    const name = v.name;
    if (v.required && !value) problems.push({ path: name, message: "validation.variable_missing", params: { name } });
    else if (v.type === "select" && value && !v.options.includes(value))
      problems.push({ path: name, message: "validation.variable_not_option", params: { name } });
    else if (v.range && value && (value.length < v.range.min || value.length > v.range.max))
      problems.push({ path: name, message: "validation.variable_length", params: { name, min: v.range.min, max: v.range.max } });
  }
  return problems;
}

/** Every variable's value, defaults filled in, when nothing breaks a rule; else the problems. */
export function resolveVariableValues(
  variables: readonly TVariableSpec[],
  values: Record<string, string | undefined>,
): { ok: true; values: Record<string, string> } | { ok: false; problems: TVariableProblem[] } {
  const problems = findVariableProblems(variables, values);
  if (problems.length) return { ok: false, problems };
  return { ok: true, values: Object.fromEntries(variables.map((v) => [v.name, pickVariableValue(v, values)])) };
}
