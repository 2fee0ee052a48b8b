// What the run page loads: for ?id= the developer's own workshop (signed in), its draft's lineup and
// debug runs; for ?app= a workshop app as its consumer may open it (signed in or not), the lineup
// of the version it pins and the consumer's own runs; with neither, nothing but how to get here.
import { data, redirect } from "@remix-run/node";
import { getSessionAccount, requireSessionAccount } from "../../lib/auth.server";
import { orNotFound } from "../../lib/or-not-found.server";
import { loadH5Page } from "../h5/h5-loader.server";
import { readVisitorId } from "../../../server/apps/visitor";
import { getWorkshopAppLineup, listWorkshopAppRuns } from "../../../server/apps/workshop-app-runs.service";
import { getDraftLineup, type TLineup } from "../../../server/workshops/lineup.service";
import { listDebugRuns } from "../../../server/workshops/runs.service";
import type { TRunSummary } from "../../../server/workshops/workshops.schema";

type TSubject = { title: string; iconUrl: string; description: string; lineup: TLineup | null; runs: TRunSummary[] };
export type TRunPageData =
  { kind: "none" } | (TSubject & { kind: "debug"; workshopId: string }) | (TSubject & { kind: "app"; appId: string; developer: string });

export async function loadRunPage(request: Request) {
  const url = new URL(request.url);
  const workshopId = url.searchParams.get("id");
  const appId = url.searchParams.get("app");
  if (appId) return loadAppRunPage(request, url);
  if (!workshopId) return data<TRunPageData>({ kind: "none" });
  const account = await requireSessionAccount(request);
  const { workshop, lineup } = await orNotFound(() => getDraftLineup(account, workshopId));
  const runs = await listDebugRuns(account, workshop.id);
  return data<TRunPageData>({
    kind: "debug",
    workshopId: workshop.id,
    title: workshop.name,
    iconUrl: workshop.iconUrl,
    description: workshop.description,
    lineup,
    runs,
  });
}

const touserOf = (url: URL): Record<string, string> => {
  const touser = url.searchParams.get("touser");
  return touser ? { touser } : {};
};

async function loadAppRunPage(request: Request, url: URL) {
  const page = await loadH5Page(request, { workshopPage: true });
  const app = page.data.app;
  // An app of another type opened here goes to its chat (a phone page on every device).
  if (app.type !== "workshop") throw redirect(`/mobi/dialogue?${new URLSearchParams({ app: app.id, ...touserOf(url) })}`);
  const account = await getSessionAccount(request);
  const visitorId = account ? null : (readVisitorId(request.headers.get("cookie")) ?? null);
  const consumer = account
    ? { account: { id: account.id, roles: account.roles, enterpriseId: account.enterpriseId }, visitorId: null }
    : { account: null, visitorId };
  const [lineup, runs] = await Promise.all([
    orNotFound(() => getWorkshopAppLineup(consumer, app.id, "h5")),
    consumer.account || consumer.visitorId ? listWorkshopAppRuns(consumer, app.id, "h5") : Promise.resolve([]),
  ]);
  const body: TRunPageData = {
    kind: "app",
    appId: app.id,
    title: app.name,
    iconUrl: app.iconUrl,
    description: app.introduction,
    developer: app.developer.nickname,
    lineup,
    runs,
  };
  return data(body, { headers: page.headers });
}
