// antd rules for the editor: the schema's own checks, with an empty number meaning "use the default".
import type { Rule } from "antd/es/form";
import type { TFunction } from "i18next";
import type { ZodType } from "zod";
import { checkLogitBias } from "./agent-form-values";

export type TEditorModel = { key: string; display_name: string; kind: string; supports_tools: boolean; supports_reasoning: boolean };

export function valueRule(schema: ZodType, t: TFunction): Rule {
  return {
    validator: async (_rule, value) => {
      const result = schema.safeParse(value ?? undefined);
      if (!result.success) throw new Error(t(result.error.issues[0]?.message ?? "validation.required", { ns: "errors" }));
    },
  };
}

/** Prices are typed in yuan and kept in micro-Z: check them as the server will see them. */
export function yuanRule(schema: ZodType, t: TFunction): Rule {
  return {
    validator: async (_rule, value) => {
      const result = schema.safeParse(Math.round(Number(value ?? 0) * 1_000_000));
      if (!result.success) throw new Error(t(result.error.issues[0]?.message ?? "validation.required", { ns: "errors" }));
    },
  };
}

export function logitBiasRule(t: TFunction): Rule {
  return {
    validator: async (_rule, value) => {
      const key = checkLogitBias(value);
      if (key) throw new Error(t(key, { ns: "errors" }));
    },
  };
}
