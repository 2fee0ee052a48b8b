// /multimedia: the multimedia library as a grid of pictures and videos with their
// names: upload (several at once), filter by type, page, preview, rename, delete.
// The four library pages: /multimedia (this grid, the home of the library), /CreatedatumList (an
// upload form that names files before sending them), /datumList (the same items as a table),
// /warehouse (a picker other pages open to choose one item, answering through `return=`).
import { TableOutlined } from "@ant-design/icons";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Button, Pagination } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { MediaGrid } from "../../components/media/media-grid";
import { MediaLocked } from "../../components/media/media-locked";
import { loadMediaLibrary } from "../../components/media/media-loader.server";
import { MediaToolbar } from "../../components/media/media-toolbar";
import { MediaUploadButton } from "../../components/media/media-upload-button";
import { useMediaActions } from "../../components/media/use-media-actions";
import { useMediaPage, type TMediaPage, type TMediaQuota } from "../../components/media/media-client";
import { MEDIA_IMAGE_LIMITS, MEDIA_UPLOADS_PER_DAY, MEDIA_VIDEO_LIMITS, toMegabytes } from "../../../server/uploads/upload-limits";
import "../../components/media/media.css";

export const handle = { i18n: ["media"] };

export const loader = ({ request }: LoaderFunctionArgs) => loadMediaLibrary(request, { pageSize: 24 });

export default function Multimedia() {
  const { t } = useTranslation("media");
  const loaded = useLoaderData<typeof loader>();
  return (
    <div className="media-page">
      <div className="media-page__head">
        <h1 className="console__title">{t("title.multimedia")}</h1>
      </div>
      {loaded.locked ? (
        <MediaLocked message={loaded.locked} />
      ) : (
        <Library initial={{ page: loaded.page as TMediaPage, quota: loaded.quota as TMediaQuota }} kind={loaded.kind} />
      )}
    </div>
  );
}

function Library({ initial, kind }: { initial: { page: TMediaPage; quota: TMediaQuota }; kind?: "image" | "video" }) {
  const { t } = useTranslation("media");
  const lib = useMediaPage(initial, kind);
  const { actions, dialogs } = useMediaActions(lib.reload);
  return (
    <>
      <p className="media-page__hint">
        {t("hint", { imageMb: toMegabytes(MEDIA_IMAGE_LIMITS.maxBytes), videoMb: toMegabytes(MEDIA_VIDEO_LIMITS.maxBytes), limit: MEDIA_UPLOADS_PER_DAY })}
      </p>
      <MediaToolbar kind={lib.kind} onKind={lib.setKind} quota={lib.quota}>
        <AppLink to="/datumList">
          <Button icon={<TableOutlined />}>{t("actions.table_view")}</Button>
        </AppLink>
        <MediaUploadButton disabled={!lib.quota.remaining} onUploaded={() => void lib.setPage(1)} />
      </MediaToolbar>
      <MediaGrid items={lib.data.items} emptyText={t(lib.kind ? "empty_filtered" : "empty")} {...actions} />
      {lib.data.total > lib.data.pageSize && (
        <div className="media-page__pager">
          <Pagination
            current={lib.data.page}
            pageSize={lib.data.pageSize}
            total={lib.data.total}
            onChange={(p, s) => void lib.setPage(p, s)}
            pageSizeOptions={[12, 24, 48]}
            showSizeChanger={false}
          />
        </div>
      )}
      {dialogs}
    </>
  );
}
