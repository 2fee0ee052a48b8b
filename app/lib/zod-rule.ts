// antd Form rules from the zod schemas the server uses, so a form refuses what the server would,
// with the same message.
import type { Rule } from "antd/es/form";
import type { TFunction } from "i18next";
import type { ZodType } from "zod";

export function zodRule(schema: ZodType, t: TFunction): Rule {
  return {
    validator: async (_rule, value) => {
      const result = schema.safeParse(value ?? "");
      if (!result.success) throw new Error(t(result.error.issues[0]?.message ?? "validation.required", { ns: "errors" }));
    },
  };
}
