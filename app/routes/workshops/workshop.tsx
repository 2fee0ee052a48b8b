// /workshop: a workshop's run page. ?id= is the developer's debug run of their draft (signed in);
// ?app= a workshop app's run for its consumer, signed in or not; ?run= reopens a run of either.
// Lean (no antd): consumers open it on phones.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { RunNoSubject } from "../../components/workshops/run-notes";
import { WorkshopRunPage } from "../../components/workshops/workshop-run-page";
import { loadRunPage, type TRunPageData } from "../../components/workshops/workshop-run.server";

export const handle = { i18n: ["workshops", "h5"] };

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const inherited = matches.flatMap((m) => m.meta ?? []).filter((d) => !("title" in d));
  const page = data as TRunPageData | undefined;
  return [...inherited, { title: page && page.kind !== "none" ? page.title : "Zelin · Workshop" }];
};

export const loader = ({ request }: LoaderFunctionArgs) => loadRunPage(request);

// The page keeps its own state: opening another run (?run=) never reloads the workshop.
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) => {
  const same = (k: string) => currentUrl.searchParams.get(k) === nextUrl.searchParams.get(k);
  return currentUrl.pathname === nextUrl.pathname && same("id") && same("app") ? false : defaultShouldRevalidate;
};

export default function WorkshopRoute() {
  const page = useLoaderData<typeof loader>() as TRunPageData;
  if (page.kind === "none") return <RunNoSubject />;
  return <WorkshopRunPage key={page.kind === "debug" ? page.workshopId : page.appId} data={page} />;
}
