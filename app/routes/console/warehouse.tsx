// /warehouse: a picker other pages (app and digital-human editors) open to choose one item of the
// library: `?kind=image|video` limits it, `?return=/path` is where "Use this" goes back to, with
// media_id and media_url added to that path's query. Only paths of this site are followed.
// The roles of the four library pages: see multimedia.tsx.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { Alert, Button, Pagination } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useAppNavigate } from "../../components/app-link";
import { MediaGrid } from "../../components/media/media-grid";
import { MediaLocked } from "../../components/media/media-locked";
import { loadMediaLibrary } from "../../components/media/media-loader.server";
import { MediaPreview } from "../../components/media/media-preview";
import { MediaToolbar } from "../../components/media/media-toolbar";
import { MediaUploadButton } from "../../components/media/media-upload-button";
import { useMediaPage, type TMediaItem, type TMediaPage, type TMediaQuota } from "../../components/media/media-client";
import { displayFileName } from "../../lib/file-name";
import { safeReturnPath, withChoice } from "../../components/media/return-path";
import "../../components/media/media.css";

export const handle = { i18n: ["media"] };

export const loader = ({ request }: LoaderFunctionArgs) => loadMediaLibrary(request, { pageSize: 24 });

export default function Warehouse() {
  const { t } = useTranslation("media");
  const loaded = useLoaderData<typeof loader>();
  return (
    <div className="media-page">
      <div className="media-page__head">
        <h1 className="console__title">{t("title.warehouse")}</h1>
      </div>
      {loaded.locked ? (
        <MediaLocked message={loaded.locked} />
      ) : (
        <Picker initial={{ page: loaded.page as TMediaPage, quota: loaded.quota as TMediaQuota }} kind={loaded.kind} />
      )}
    </div>
  );
}

function Picker({ initial, kind }: { initial: { page: TMediaPage; quota: TMediaQuota }; kind?: "image" | "video" }) {
  const { t } = useTranslation("media");
  const [params] = useSearchParams();
  const navigate = useAppNavigate();
  const lib = useMediaPage(initial, kind);
  const [selected, setSelected] = useState<TMediaItem | null>(null);
  const [previewing, setPreviewing] = useState<TMediaItem | null>(null);
  const returnPath = safeReturnPath(params.get("return"));
  // A picker opened for one type keeps to it.
  const fixedKind = Boolean(kind);
  return (
    <>
      <p className="media-page__hint">{t("picker.hint")}</p>
      {!returnPath && <Alert className="media-picker__notice" type="info" showIcon message={t("picker.no_return")} />}
      <MediaToolbar kind={lib.kind} onKind={(k) => !fixedKind && void lib.setKind(k)} quota={lib.quota}>
        <MediaUploadButton type="default" disabled={!lib.quota.remaining} onUploaded={(item) => (setSelected(item), void lib.setPage(1))} />
      </MediaToolbar>
      <MediaGrid
        items={lib.data.items}
        emptyText={t(lib.kind ? "empty_filtered" : "empty")}
        onPreview={setPreviewing}
        selectedId={selected?.id ?? null}
        onSelect={setSelected}
      />
      {lib.data.total > lib.data.pageSize && (
        <div className="media-page__pager">
          <Pagination
            current={lib.data.page}
            pageSize={lib.data.pageSize}
            total={lib.data.total}
            onChange={(p) => void lib.setPage(p)}
            showSizeChanger={false}
          />
        </div>
      )}
      <div className="media-picker__bar">
        <span data-testid="media-picker-selected">{selected ? t("picker.selected", { name: displayFileName(selected.name) }) : t("picker.hint")}</span>
        <Button
          type="primary"
          disabled={!selected || !returnPath}
          onClick={() => selected && returnPath && navigate(withChoice(returnPath, selected))}
          data-testid="media-picker-use"
        >
          {t("actions.use")}
        </Button>
      </div>
      <MediaPreview item={previewing} onClose={() => setPreviewing(null)} />
    </>
  );
}
