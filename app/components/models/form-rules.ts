// antd rules for the model pages, from the server's zod schemas (same refusals, same messages).
import type { Rule } from "antd/es/form";
import type { TFunction } from "i18next";
import type { ZodType } from "zod";
import { toMicro } from "./model-format";

const message = (issue: string | undefined, t: TFunction) => t(issue ?? "validation.required", { ns: "errors" });

/** An optional field: empty passes, anything else must satisfy the schema. */
export function optionalRule(schema: ZodType, t: TFunction): Rule {
  return {
    validator: async (_rule, value) => {
      if (value === undefined || value === null || value === "") return;
      const result = schema.safeParse(value);
      if (!result.success) throw new Error(message(result.error.issues[0]?.message, t));
    },
  };
}

/** A required field; an empty number field says "required", not "out of range". */
export function requiredRule(schema: ZodType, t: TFunction): Rule {
  return {
    validator: async (_rule, value) => {
      if (value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0))
        throw new Error(message("validation.required", t));
      const result = schema.safeParse(value);
      if (!result.success) throw new Error(message(result.error.issues[0]?.message, t));
    },
  };
}

/** A price typed in yuan, checked as the micro-Z amount the server stores. */
export function yuanRule(schema: ZodType, t: TFunction): Rule {
  return {
    validator: async (_rule, value) => {
      if (value === undefined || value === null || value === "") throw new Error(message("validation.required", t));
      const result = schema.safeParse(toMicro(Number(value)));
      if (!result.success) throw new Error(message(result.error.issues[0]?.message, t));
    },
  };
}
