// Between the form and TAppInput: prices are typed in Z and kept in micro-Z; empty optional fields
// take the schema's defaults. The schema then checks the result exactly as the server will.
import { MICRO } from "../../../../server/accounts/editions";
import type { TAppInput, TAppType } from "../../../../server/apps/apps.schema";
import { isListedVoice } from "../../../../server/media/voices";

export type TPlanFormValues = { kind: "days" | "count"; quantity: number | null; price: number | null; daily_limit: number | null };
export type TAppFormValues = Omit<TAppInput, "plans" | "category_id"> & { category_id: number | null; plans: TPlanFormValues[] };

export function toFormValues(input: TAppInput): TAppFormValues {
  // An announcer typed as free text before the voice list existed already speaks the default voice.
  const speaker = isListedVoice(input.speaker ?? "") ? input.speaker : "";
  return {
    ...input,
    speaker,
    plans: input.plans.map((p) => ({ kind: p.kind, quantity: p.quantity, price: p.price_micro / MICRO, daily_limit: p.daily_limit })),
  };
}

export function emptyFormValues(type: TAppType): TAppFormValues {
  const settings =
    type === "bot" ? { channel: "wechat", greeting: "" } : type === "digital_human" ? { figure_id: "", voice_id: "", orientation: "vertical" } : {};
  return {
    type,
    name: "",
    name_en: "",
    icon_url: "",
    introduction: "",
    introduction_en: "",
    category_id: null,
    tags: [],
    platform: type === "api" ? "api" : "web",
    agent_ids: [],
    style: "conversation",
    recommended_questions: [],
    menu_items: [],
    input_modes: ["text"],
    output_modes: ["text"],
    auto_play: false,
    speaker: "",
    background_url: null,
    welcome_messages: [],
    mode: "general",
    plans: [],
    trial_days: 0,
    free_per_day: 0,
    share_ratio: 10,
    is_public: true,
    in_app_centre: true,
    input_content: { enabled: false, variables: [] },
    settings,
  };
}

/** The workshop a new workshop app publishes, and its name, icon and description to start from. */
export type TWorkshopChoice = { id: string; name: string; iconUrl: string; description: string };

export function withWorkshop(values: TAppFormValues, w: TWorkshopChoice): TAppFormValues {
  return {
    ...values,
    name: values.name || w.name.slice(0, 29),
    icon_url: values.icon_url || w.iconUrl,
    introduction: values.introduction || w.description,
    settings: { ...values.settings, workshop_id: w.id },
  };
}

/** What is sent: a missing number stays missing so the schema names the field. */
export function fromFormValues(v: TAppFormValues): Record<string, unknown> {
  // A workshop app's agents are its workshop's: the server fills them in.
  const picked = Array.isArray(v.agent_ids) ? v.agent_ids : v.agent_ids ? [v.agent_ids as unknown as string] : [];
  const agentIds = v.type === "workshop" ? [] : picked;
  return {
    ...v,
    category_id: v.category_id ?? undefined,
    agent_ids: agentIds,
    background_url: v.background_url || null,
    menu_items: (v.menu_items ?? []).map((m) => ({ ...m, image_url: m.image_url || undefined })),
    plans: (v.plans ?? []).map((p) => ({
      kind: p.kind,
      quantity: p.quantity ?? undefined,
      price_micro: p.price == null ? undefined : Math.round(Number(p.price) * MICRO),
      daily_limit: p.daily_limit ?? null,
    })),
    input_content: {
      enabled: Boolean(v.input_content?.enabled),
      variables: (v.input_content?.variables ?? []).map((x) => ({ ...x, options: x.options ?? [] })),
    },
  };
}
