import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, type MetaFunction } from "@remix-run/react";
import { ErrorScreen } from "../../components/shell/error-screen";

export const meta: MetaFunction = () => [{ title: "403" }, { name: "robots", content: "noindex" }];

// /no_perm: the account may not use a function; /no_page_perm: it may not open a page. Both are
// refusals, so they answer 403, not 200.
export function loader({ request }: LoaderFunctionArgs) {
  const page = new URL(request.url).pathname.endsWith("no_page_perm");
  return data({ page }, { status: 403 });
}

export default function NoPermission() {
  const { page } = useLoaderData<typeof loader>();
  return (
    <ErrorScreen status={403} titleKey="shell.errors.no_access_title" bodyKey={page ? "shell.errors.no_page_access_body" : "shell.errors.no_access_body"} />
  );
}
