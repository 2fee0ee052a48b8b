// Field errors on an antd form from a zod path ("credentials.corp_id"), in the browser's check and
// in the server's validation_failed alike: the same message on the same field.
import type { FormInstance } from "antd";

export type TFieldIssue = { path: string; message: string };

export function setFieldIssues(form: FormInstance, issues: TFieldIssue[]) {
  const byField = new Map<string, { name: (string | number)[]; errors: string[] }>();
  for (const i of issues) {
    const name = i.path.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p));
    const key = JSON.stringify(name);
    byField.set(key, { name, errors: [...(byField.get(key)?.errors ?? []), i.message] });
  }
  form.setFields([...byField.values()]);
  const first = [...byField.values()][0];
  if (first) form.scrollToField(first.name, { block: "center" });
}

/** Clears the errors of the fields that just changed, one level into nested values (credentials.x). */
export function clearChangedErrors(form: FormInstance, changed: Record<string, unknown>) {
  const names: (string | number)[][] = [];
  for (const [key, value] of Object.entries(changed)) {
    if (value && typeof value === "object" && !Array.isArray(value)) for (const sub of Object.keys(value)) names.push([key, sub]);
    names.push([key]);
  }
  form.setFields(names.map((name) => ({ name, errors: [] })));
}
