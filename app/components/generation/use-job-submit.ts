// Starting a job from a form: the browser's own check first (the server's schema), then the call;
// a refusal that names fields puts its sentence under them, and every refusal is also said in the
// message bar (balance, a tail frame the model does not take, a picture not found ...).
import type { FormInstance } from "antd";
import { useTranslation } from "react-i18next";
import { fieldErrorsOf } from "../../lib/api-client";
import { useMutation } from "../../lib/use-mutation";
import type { TMediaJob } from "./generation-client";
import { toFormField, type TBuilt } from "./job-inputs";

export function useJobSubmit<V, I>(
  form: FormInstance<V>,
  build: (values: V) => TBuilt<I>,
  submit: (input: I) => Promise<TMediaJob>,
  onSubmitted: (job: TMediaJob) => void,
) {
  const { t } = useTranslation("errors");
  const call = useMutation(async (input: I) => onSubmitted(await submit(input)), {
    onError: (err) => {
      const fields = fieldErrorsOf(err);
      if (fields.length) form.setFields(fields.map((f) => ({ name: toFormField(f.path) as never, errors: [f.message] })));
      return false;
    },
  });
  const start = async () => {
    const values = form.getFieldsValue(true) as V;
    // A refusal put on a field by an earlier try goes once the form is tried again.
    form.setFields(Object.keys(values as object).map((name) => ({ name: name as never, errors: [] })));
    const built = build(values);
    if (!built.ok) {
      form.setFields(built.problems.map((p) => ({ name: p.name as never, errors: [t(p.message)] })));
      return;
    }
    await call.run(built.input);
  };
  return { start, busy: call.busy };
}
