// My library's pictures and videos in a dialog, to put one behind the figure without leaving the
// editor (what is placed so far stays as it is).
import { Alert, Button, Modal, Pagination, Segmented, Skeleton } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../lib/api-client";
import { fetchMediaPage, type TMediaItem, type TMediaKind, type TMediaPage } from "../media/media-client";
import { MediaGrid } from "../media/media-grid";

const PAGE_SIZE = 12;

export function BackgroundPickerModal({ open, onClose, onPick }: { open: boolean; onClose: () => void; onPick: (item: TMediaItem) => void }) {
  const { t } = useTranslation("digital");
  const [kind, setKind] = useState<TMediaKind | "all">("all");
  const [page, setPage] = useState(1);
  const [data, setData] = useState<TMediaPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<TMediaItem | null>(null);

  useEffect(() => {
    if (!open) return;
    let live = true;
    setError(null);
    fetchMediaPage({ kind: kind === "all" ? undefined : kind, page, pageSize: PAGE_SIZE }).then(
      (p) => live && setData(p),
      (err: unknown) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, [open, kind, page]);

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t("editor.background.library_title")}
      width={880}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t("editor.actions.cancel")}
        </Button>,
        <Button key="use" type="primary" disabled={!selected} onClick={() => selected && onPick(selected)} data-testid="digital-background-use">
          {t("editor.background.use")}
        </Button>,
      ]}
    >
      <Segmented
        value={kind}
        onChange={(v) => (setKind(v as TMediaKind | "all"), setPage(1))}
        options={[
          { value: "all", label: t("editor.background.kind_all") },
          { value: "image", label: t("editor.background.kind_image") },
          { value: "video", label: t("editor.background.kind_video") },
        ]}
        className="digital-picker__kinds"
      />
      {error ? (
        <Alert type="error" showIcon message={error} />
      ) : !data ? (
        <Skeleton active />
      ) : (
        <>
          <MediaGrid
            items={data.items}
            emptyText={t("editor.background.library_empty")}
            onPreview={setSelected}
            selectedId={selected?.id ?? null}
            onSelect={setSelected}
          />
          {data.total > data.pageSize && (
            <div className="media-page__pager">
              <Pagination current={data.page} pageSize={data.pageSize} total={data.total} onChange={setPage} showSizeChanger={false} size="small" />
            </div>
          )}
        </>
      )}
    </Modal>
  );
}
