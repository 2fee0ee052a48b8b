// /create_normal_train (?id= to edit): a standard training set, its name and introduction, and its
// Q&A items with import (and its report) and export. While the offline model is offered, a hint
// says how to phrase questions for it.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useAppNavigate } from "../../components/app-link";
import { QaItemsCard } from "../../components/train/qa-items-card";
import { QaOfflineHint } from "../../components/train/qa-offline-hint";
import { SetHead } from "../../components/train/set-head";
import { SetInfoCard } from "../../components/train/set-info-card";
import { editPathOf } from "../../components/train/train-format";
import { useSetDetail } from "../../components/train/use-set-detail";
import { requireSessionAccount } from "../../lib/auth.server";
import { orNotFound } from "../../lib/or-not-found.server";
import { getTrainingSet, listQaItems } from "../../../server/knowledge/training-sets.service";
import { ZListQaItemsInput, ZTrainingSetId } from "../../../server/knowledge/training-sets.schema";
import { OFFLINE_MODEL_KEY } from "../../../server/models/offline-model";
import { listPublicModels } from "../../../server/models/models.service";
import "../../components/train/train.css";

export const handle = { i18n: ["train"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  const url = new URL(request.url);
  const id = url.searchParams.get("id");
  const offline = listPublicModels().then(
    (models) => models.some((m) => m.key === OFFLINE_MODEL_KEY),
    () => false,
  );
  if (!id) return { detail: null, items: null, offline: await offline };
  const detail = await orNotFound(() => getTrainingSet(account, ZTrainingSetId.parse({ id })));
  // Each type has its own page.
  if (detail.type !== "standard") throw redirect(`${url.pathname.startsWith("/mobi") ? "/mobi" : ""}${editPathOf(detail)}`);
  return { detail, items: await orNotFound(() => listQaItems(account, ZListQaItemsInput.parse({ id }))), offline: await offline };
}

function StandardSetPage() {
  const { t } = useTranslation("train");
  const loaded = useLoaderData<typeof loader>();
  const navigate = useAppNavigate();
  const { detail, refresh } = useSetDetail(loaded.detail);
  const editable = Boolean(detail && detail.state !== "disabled" && detail.state !== "unavailable");
  return (
    <div className="console__page train-page" data-testid="train-standard-page">
      {detail ? (
        <SetHead
          detail={detail}
          onChanged={() => void refresh()}
          facts={<span data-testid="train-item-count">{t("qa.count", { count: detail.item_count })}</span>}
        />
      ) : (
        <h1 className="console__title">{t("info.new_standard")}</h1>
      )}
      <div className="train-page__stack">
        <SetInfoCard
          type="standard"
          set={detail}
          onSaved={(saved, created) => (created ? navigate(`/create_normal_train?id=${encodeURIComponent(saved.id)}`, { replace: true }) : void refresh())}
        />
        {detail && loaded.offline && <QaOfflineHint />}
        {detail && <QaItemsCard setId={detail.id} initial={loaded.items} editable={editable} onChanged={() => void refresh()} />}
      </div>
    </div>
  );
}

export default function CreateNormalTrain() {
  const { detail } = useLoaderData<typeof loader>();
  return <StandardSetPage key={detail?.id ?? "new"} />;
}
