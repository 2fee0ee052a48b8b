// The editor pages' loader: categories, the account's agents that have a live version (with their
// variables), the app, a library picture handed over in the query (chosen-media.ts), and for a
// workshop app the account's workshops (a new one starts from ?workshop_id=).
import { requireSessionAccount } from "../../../lib/auth.server";
import { orNotFound } from "../../../lib/or-not-found.server";
import { listAgents } from "../../../../server/agents/agents.service";
import { getApp, listCategories } from "../../../../server/apps/apps.service";
import { readLiveVariables, toVariableNotes } from "../../../../server/apps/agent-variables.service";
import { APP_TYPES, type TAppType } from "../../../../server/apps/apps.schema";
import { listWorkshops } from "../../../../server/workshops/workshops.service";
import type { TAppEditorData } from "./app-editor-page";
import { readChosenMedia } from "./chosen-media";

export async function loadAppEditor(request: Request, fixedType?: TAppType): Promise<TAppEditorData> {
  const account = await requireSessionAccount(request);
  const url = new URL(request.url);
  const id = url.searchParams.get("id");
  const asked = url.searchParams.get("type") as TAppType | null;
  const [categories, agents, app] = await Promise.all([listCategories(), listAgents(account), id ? orNotFound(() => getApp(account, { id })) : null]);
  const type: TAppType = app?.type ?? fixedType ?? (asked && APP_TYPES.includes(asked) && asked !== "api" ? asked : "h5");
  const live = agents.filter((a) => a.live && ["published", "published_in_review", "on_shelf"].includes(a.live.state));
  // Which variables visitors will be asked for, so the form can say so beside the agent picked.
  const variables = await readLiveVariables(live.map((a) => a.id));
  // An API app has no page, so no background to put a picture on.
  const chosen = type === "api" ? null : readChosenMedia(url.searchParams, account.id);
  const workshops = (type === "workshop" ? await listWorkshops(account) : []).map((w) => ({
    id: w.id,
    name: w.name,
    iconUrl: w.iconUrl,
    description: w.description,
    roleCount: w.roleCount,
    nodeCount: w.nodeCount,
  }));
  const startWorkshop = app ? null : (workshops.find((w) => w.id === url.searchParams.get("workshop_id")) ?? null);
  return {
    type,
    app,
    chosen,
    categories,
    agents: live.map((a) => ({ id: a.id, name: a.name, variables: toVariableNotes(variables.get(a.id) ?? []) })),
    workshops,
    workshop: startWorkshop,
  };
}
