// The model catalogue: platform administrators add and change models; everyone lists the enabled
// ones (the builder's model picker, API clients).
import { AppError } from "../errors/app-error";
import * as repo from "./models.repository";
import type { TCreateModelInput, TUpdateModelInput } from "./models.schema";

export type TModelView = ReturnType<typeof toModelView>;
export type TCatalogueModelView = Omit<TModelView, "upstream_model">;
export type TPublicModelView = { key: string; display_name: string; kind: string; supports_tools: boolean; supports_reasoning: boolean };

export async function listPublicModels(): Promise<TPublicModelView[]> {
  return (await repo.listModels({ enabledOnly: true })).map((m) => ({
    key: m.key,
    display_name: m.displayName,
    kind: m.kind,
    supports_tools: m.supportsTools,
    supports_reasoning: m.supportsReasoning,
  }));
}

/** The /model catalogue for every signed-in account: what it costs and can do, not where it runs. */
export async function listCatalogueModels(): Promise<TCatalogueModelView[]> {
  return (await repo.listModels({ enabledOnly: true })).map((row) => {
    const { upstream_model: _where, ...view } = toModelView(row);
    return view;
  });
}

export async function listAllModels() {
  return (await repo.listModels({ enabledOnly: false })).map(toModelView);
}

export async function createModel(input: TCreateModelInput) {
  if (await repo.findModelByKey(input.key)) throw new AppError("repeat_action");
  const row = await repo.insertModel({
    key: input.key,
    displayName: input.display_name,
    kind: input.kind,
    upstreamModel: input.upstream_model ?? input.key,
    contextWindow: input.context_window,
    inputPriceMicro: input.input_price_micro,
    outputPriceMicro: input.output_price_micro,
    unitPriceMicro: input.unit_price_micro,
    supportsTools: input.supports_tools,
    supportsReasoning: input.supports_reasoning,
    enabled: input.enabled,
  });
  return toModelView(row);
}

export async function updateModel(id: string, input: TUpdateModelInput) {
  if (!(await repo.findModelById(id))) throw new AppError("not_found");
  const row = await repo.updateModelById(id, {
    displayName: input.display_name,
    kind: input.kind,
    upstreamModel: input.upstream_model,
    contextWindow: input.context_window,
    inputPriceMicro: input.input_price_micro,
    outputPriceMicro: input.output_price_micro,
    unitPriceMicro: input.unit_price_micro,
    supportsTools: input.supports_tools,
    supportsReasoning: input.supports_reasoning,
    enabled: input.enabled,
  });
  return toModelView(row);
}

export async function deleteModel(id: string) {
  const model = await repo.findModelById(id);
  if (!model) throw new AppError("not_found");
  // Deleting a model that agents run on or channels serve would break them silently: disable it instead.
  const users = await repo.countModelUsers(model.key);
  if (users.agents || users.channels) throw new AppError("model_in_use", { params: users, data: users });
  await repo.deleteModelById(id);
  return { id };
}

function toModelView(m: repo.TModelRow) {
  return {
    id: m.id,
    key: m.key,
    display_name: m.displayName,
    kind: m.kind,
    upstream_model: m.upstreamModel,
    context_window: m.contextWindow,
    input_price_micro: m.inputPriceMicro,
    output_price_micro: m.outputPriceMicro,
    unit_price_micro: m.unitPriceMicro,
    supports_tools: m.supportsTools,
    supports_reasoning: m.supportsReasoning,
    enabled: m.enabled,
    created_at: m.createdAt.toISOString(),
  };
}
