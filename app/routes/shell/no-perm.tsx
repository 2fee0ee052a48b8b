import type { MetaFunction } from "@remix-run/react";
import { ErrorScreen } from "../../components/shell/error-screen";

export const meta: MetaFunction = () => [{ title: "403" }, { name: "robots", content: "noindex" }];

// /no_perm: the account may not use this function; /no_page_perm: it may not open this page.
export function loader({ request }: { request: Request }) {
  const page = new URL(request.url).pathname.endsWith("no_page_perm");
  return { page };
}

export default function NoPermission() {
  return <ErrorScreen status={403} titleKey="shell.errors.no_access_title" bodyKey="shell.errors.no_access_body" />;
}
