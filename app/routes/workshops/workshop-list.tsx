// /workshopList: the developer's workshops, and the way to make one.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageMeta } from "../../components/site/page-meta";
import { WorkshopListPage } from "../../components/workshops/workshop-list-page";
import { requireSessionAccount } from "../../lib/auth.server";
import { listWorkshops } from "../../../server/workshops/workshops.service";

export const handle = { i18n: ["workshops"] };
export const meta = pageMeta("Zelin · Workshops");

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  return { workshops: await listWorkshops(account) };
}

export default function WorkshopListRoute() {
  return <WorkshopListPage workshops={useLoaderData<typeof loader>().workshops} />;
}
