// The editor pages' loader: categories, the account's agents that have a live version, the app.
import { requireSessionAccount } from "../../../lib/auth.server";
import { listAgents } from "../../../../server/agents/agents.service";
import { getApp, listCategories } from "../../../../server/apps/apps.service";
import { APP_TYPES, type TAppType } from "../../../../server/apps/apps.schema";
import type { TAppEditorData } from "./app-editor-page";

export async function loadAppEditor(request: Request, fixedType?: TAppType): Promise<TAppEditorData> {
  const account = await requireSessionAccount(request);
  const url = new URL(request.url);
  const id = url.searchParams.get("id");
  const asked = url.searchParams.get("type") as TAppType | null;
  const [categories, agents, app] = await Promise.all([listCategories(), listAgents(account), id ? getApp(account, { id }) : null]);
  const type: TAppType = app?.type ?? fixedType ?? (asked && APP_TYPES.includes(asked) && asked !== "api" ? asked : "h5");
  return { type, app, categories, agents: agents.filter((a) => a.live && ["published", "on_shelf"].includes(a.live.state)).map((a) => ({ id: a.id, name: a.name })) };
}
