// The library's pictures in a dialog, to choose one without leaving the form (the /warehouse page
// does the same for editors, but going there would lose what was typed here).
import { Alert, Button, Modal, Pagination, Skeleton } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../lib/api-client";
import { fetchMediaPage, type TMediaItem, type TMediaPage } from "../media/media-client";
import { MediaGrid } from "../media/media-grid";

const PAGE_SIZE = 12;

export function LibraryPickerModal({ open, onClose, onPick }: { open: boolean; onClose: () => void; onPick: (item: TMediaItem) => void }) {
  const { t } = useTranslation("generation");
  const [page, setPage] = useState(1);
  const [data, setData] = useState<TMediaPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<TMediaItem | null>(null);

  useEffect(() => {
    if (!open) return;
    let live = true;
    setError(null);
    fetchMediaPage({ kind: "image", page, pageSize: PAGE_SIZE }).then(
      (p) => live && setData(p),
      (err: unknown) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, [open, page]);

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t("picture.library_title")}
      width={880}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t("actions.cancel")}
        </Button>,
        <Button key="use" type="primary" disabled={!selected} onClick={() => selected && onPick(selected)} data-testid="generation-library-use">
          {t("picture.use")}
        </Button>,
      ]}
    >
      {error ? (
        <Alert type="error" showIcon message={error} />
      ) : !data ? (
        <Skeleton active />
      ) : (
        <>
          <MediaGrid
            items={data.items}
            emptyText={t("picture.library_empty")}
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
