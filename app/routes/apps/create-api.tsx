// /create_api: the API app form, without what only an H5 page shows; ?id= edits.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AppEditorPage } from "../../components/apps/app-form/app-editor-page";
import { loadAppEditor } from "../../components/apps/app-form/app-editor.server";
import { ApiKeyPanel } from "../../components/apps/api-key-panel";

export const handle = { i18n: ["apps", "agents", "apikeys"] };

export const loader = ({ request }: LoaderFunctionArgs) => loadAppEditor(request, "api");

export default function CreateApiPage() {
  const data = useLoaderData<typeof loader>();
  return (
    <>
      <AppEditorPage data={data} />
      {data.app ? <ApiKeyPanel appId={data.app.id} /> : null}
    </>
  );
}
