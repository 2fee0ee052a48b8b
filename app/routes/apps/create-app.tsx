// /create_app: the H5 app form (?type=bot|workshop|digital_human for those types' settings; ?id= edits).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AppEditorPage } from "../../components/apps/app-form/app-editor-page";
import { loadAppEditor } from "../../components/apps/app-form/app-editor.server";

export const handle = { i18n: ["apps", "agents"] };

export const loader = ({ request }: LoaderFunctionArgs) => loadAppEditor(request);

export default function CreateAppPage() {
  return <AppEditorPage data={useLoaderData<typeof loader>()} />;
}
