// /createWork: a new workshop's information; ?id= edits an existing one's.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageMeta } from "../../components/site/page-meta";
import { WorkshopInfoForm } from "../../components/workshops/workshop-info-form";
import { requireSessionAccount } from "../../lib/auth.server";
import { orNotFound } from "../../lib/or-not-found.server";
import { getWorkshop } from "../../../server/workshops/workshops.service";

// apps: the icon upload field's words; agents: the unsaved-changes question.
export const handle = { i18n: ["workshops", "apps", "agents"] };
export const meta = pageMeta("Zelin · Workshop");

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  const id = new URL(request.url).searchParams.get("id");
  if (!id) return { workshop: null };
  const w = await orNotFound(() => getWorkshop(account, id));
  return { workshop: { id: w.id, name: w.name, description: w.description, iconUrl: w.iconUrl } };
}

export default function CreateWorkRoute() {
  const { workshop } = useLoaderData<typeof loader>();
  return <WorkshopInfoForm key={workshop?.id ?? "new"} workshop={workshop} />;
}
