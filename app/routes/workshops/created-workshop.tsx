// /CreatedWorkshop?id=: a workshop's roles, nodes and run limits, and the apps that publish it.
// Without an id there is nothing to edit: the list of workshops is where one is chosen.
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageMeta } from "../../components/site/page-meta";
import { WorkshopEditor } from "../../components/workshops/workshop-editor";
import { requireSessionAccount } from "../../lib/auth.server";
import { orNotFound } from "../../lib/or-not-found.server";
import { isMobiPath, toMobiPath } from "../../route-table";
import { listWorkshopApps } from "../../../server/apps/workshop-apps.service";
import { getWorkshop, listUsableAgents } from "../../../server/workshops/workshops.service";

// apps: the published apps' states; agents: the unsaved-changes question.
export const handle = { i18n: ["workshops", "apps", "agents"] };
export const meta = pageMeta("Zelin · Workshop editor");

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  const url = new URL(request.url);
  const id = url.searchParams.get("id");
  if (!id) throw redirect(isMobiPath(url.pathname) ? toMobiPath("/workshopList") : "/workshopList");
  const workshop = await orNotFound(() => getWorkshop(account, id));
  const [agents, apps] = await Promise.all([listUsableAgents(account), listWorkshopApps(account, id)]);
  return { workshop, agents, apps };
}

export default function CreatedWorkshopRoute() {
  const { workshop, agents, apps } = useLoaderData<typeof loader>();
  return <WorkshopEditor key={`${workshop.id}:${workshop.revision}`} workshop={workshop} agents={agents} apps={apps} />;
}
