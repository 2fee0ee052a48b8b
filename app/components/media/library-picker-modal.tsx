// The library's pictures, videos or both in a dialog, to choose one without leaving the form that
// asked (the /warehouse page does the same for editors, but going there would lose what was typed).
import { Alert, Button, Modal, Pagination, Segmented, Skeleton } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../lib/api-client";
import { fetchMediaPage, type TMediaItem, type TMediaKind, type TMediaPage } from "./media-client";
import { MediaGrid } from "./media-grid";

const PAGE_SIZE = 12;

type TLibraryPickerProps = {
  open: boolean;
  /** What it lists: one kind, or both with a switch between all, pictures and videos. */
  kinds: TMediaKind | "both";
  /** The asking form's own words for the dialog's title, an empty library and the choose button. */
  texts: { title: string; empty: string; use: string };
  /** data-testid of the choose button. */
  useTestId: string;
  onClose: () => void;
  onPick: (item: TMediaItem) => void;
};

export function LibraryPickerModal({ open, kinds, texts, useTestId, onClose, onPick }: TLibraryPickerProps) {
  const { t } = useTranslation("media");
  const [shown, setShown] = useState<TMediaKind | "all">(kinds === "both" ? "all" : kinds);
  const [page, setPage] = useState(1);
  const [data, setData] = useState<TMediaPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<TMediaItem | null>(null);

  useEffect(() => {
    if (!open) return;
    let live = true;
    setError(null);
    fetchMediaPage({ kind: shown === "all" ? undefined : shown, page, pageSize: PAGE_SIZE }).then(
      (p) => live && setData(p),
      (err: unknown) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, [open, shown, page]);

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={texts.title}
      width={880}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t("actions.cancel")}
        </Button>,
        <Button key="use" type="primary" disabled={!selected} onClick={() => selected && onPick(selected)} data-testid={useTestId}>
          {texts.use}
        </Button>,
      ]}
    >
      {kinds === "both" && (
        <Segmented
          value={shown}
          onChange={(v) => (setShown(v as TMediaKind | "all"), setPage(1))}
          options={(["all", "image", "video"] as const).map((value) => ({ value, label: t(`kind.${value}`) }))}
          className="media-picker__kinds"
        />
      )}
      {error ? (
        <Alert type="error" showIcon message={error} />
      ) : !data ? (
        <Skeleton active />
      ) : (
        <>
          <MediaGrid items={data.items} emptyText={texts.empty} onPreview={setSelected} selectedId={selected?.id ?? null} onSelect={setSelected} />
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
