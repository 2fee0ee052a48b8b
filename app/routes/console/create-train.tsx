// /create_train (?id= to edit): a smart text training set, its name and introduction, and its
// documents with their states and characters (under 50,000 per file advised).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useAppNavigate } from "../../components/app-link";
import { DocumentsCard } from "../../components/train/documents-card";
import { SetHead } from "../../components/train/set-head";
import { SetInfoCard } from "../../components/train/set-info-card";
import { editPathOf } from "../../components/train/train-format";
import { useSetDetail } from "../../components/train/use-set-detail";
import { requireSessionAccount } from "../../lib/auth.server";
import { orNotFound } from "../../lib/or-not-found.server";
import { getTrainingSet } from "../../../server/knowledge/training-sets.service";
import { ZTrainingSetId } from "../../../server/knowledge/training-sets.schema";
import "../../components/train/train.css";

export const handle = { i18n: ["train"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  const url = new URL(request.url);
  const id = url.searchParams.get("id");
  if (!id) return { detail: null };
  const detail = await orNotFound(() => getTrainingSet(account, ZTrainingSetId.parse({ id })));
  if (detail.type !== "smart") throw redirect(`${url.pathname.startsWith("/mobi") ? "/mobi" : ""}${editPathOf(detail)}`);
  return { detail };
}

function SmartSetPage() {
  const { t } = useTranslation("train");
  const loaded = useLoaderData<typeof loader>();
  const navigate = useAppNavigate();
  const { detail, refresh } = useSetDetail(loaded.detail);
  const editable = Boolean(detail && detail.state !== "disabled" && detail.state !== "unavailable");
  return (
    <div className="console__page train-page" data-testid="train-smart-page">
      {detail ? (
        <SetHead
          detail={detail}
          onChanged={() => void refresh()}
          facts={
            <span>
              {t("docs.title")}: {detail.documents.length}
            </span>
          }
        />
      ) : (
        <h1 className="console__title">{t("info.new_smart")}</h1>
      )}
      <div className="train-page__stack">
        <SetInfoCard
          type="smart"
          set={detail}
          onSaved={(saved, created) => (created ? navigate(`/create_train?id=${encodeURIComponent(saved.id)}`, { replace: true }) : void refresh())}
        />
        {detail && <DocumentsCard setId={detail.id} documents={detail.documents} editable={editable} onChanged={() => void refresh()} />}
      </div>
    </div>
  );
}

export default function CreateTrain() {
  const { detail } = useLoaderData<typeof loader>();
  return <SmartSetPage key={detail?.id ?? "new"} />;
}
