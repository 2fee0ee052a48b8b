// A smart set's documents: uploaded (txt, docx, pdf; 50 MB each; 10 at a time), listed with their
// state and, once the job has read them, their characters against the 50,000 advised per file.
import { DeleteOutlined, InboxOutlined } from "@ant-design/icons";
import { Alert, App, Button, Card, Empty, Grid, Popconfirm, Table, Tag, Tooltip, Upload } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, errorText } from "../../lib/api-client";
import { displayFileName } from "../../lib/file-name";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import { ADVISED_TRAINING_FILE_CHARS } from "../../../server/accounts/editions";
import { DOCUMENTS_PER_UPLOAD, type TTrainingDocumentView } from "../../../server/knowledge/training-sets.schema";
import { checkFileSize, TEXT_FILE_ACCEPT, TRAINING_FILE_LIMITS } from "../../../server/uploads/upload-limits";
import { useIsMobi } from "../app-link";
import { uploadDocumentFiles } from "./train-api";
import { formatBytes, formatNumber } from "./train-format";

const DOC_COLORS = { pending: "default", indexing: "processing", done: "success", failed: "error" } as const;

type TProps = { setId: string; documents: TTrainingDocumentView[]; editable: boolean; onChanged: () => void };

export function DocumentsCard({ setId, documents, editable, onChanged }: TProps) {
  const { t, i18n } = useTranslation("train");
  const { message } = App.useApp();
  const screens = Grid.useBreakpoint();
  const narrow = useIsMobi() || screens.md === false;
  const [uploading, setUploading] = useState(0);
  const num = (n: number) => formatNumber(n, i18n.language);

  /** One request per file: a refused file is named and the others still go up. */
  const uploadBatch = async (files: File[]) => {
    if (files.length > DOCUMENTS_PER_UPLOAD) return void message.error(t("docs.too_many", { max: DOCUMENTS_PER_UPLOAD }));
    let sent = 0;
    setUploading(files.length);
    for (const file of files) {
      const early = checkFileSize(file, TRAINING_FILE_LIMITS);
      try {
        if (early) throw new ApiError(0, t(early, { ns: "errors" }), null);
        await uploadDocumentFiles(setId, [file], t("upload_failed", { ns: "errors" }));
        sent++;
      } catch (err) {
        message.error(t("docs.refused", { name: file.name, reason: errorText(err) }));
      }
      setUploading((n) => n - 1);
    }
    if (sent) message.success(t("docs.uploaded", { count: sent }));
    onChanged();
  };

  const { run: remove } = useMutation(async (doc: TTrainingDocumentView) => {
    await callTrpc(() => trpc.trainingSets.documents.delete.mutate({ id: setId, documentId: doc.id }));
    message.success(t("docs.deleted"));
    onChanged();
  });

  const chars = (d: TTrainingDocumentView) => {
    if (d.state === "failed")
      return (
        <span className="train-state__reason">{t(d.error ?? "training_failed", { ns: "errors", defaultValue: t("training_failed", { ns: "errors" }) })}</span>
      );
    if (d.state !== "done") return <span className="train-muted">{t("docs.chars_pending")}</span>;
    return (
      <span data-testid="doc-chars">
        {num(d.char_count)}
        {d.char_count > ADVISED_TRAINING_FILE_CHARS && (
          <Tag color="warning" style={{ marginInlineStart: 6 }} data-testid="doc-over-advice">
            {t("docs.over_advice")}
          </Tag>
        )}
      </span>
    );
  };

  return (
    <Card title={t("docs.title")} data-testid="docs-card">
      <Upload.Dragger
        className="train-docs__drop"
        multiple
        accept={TEXT_FILE_ACCEPT}
        showUploadList={false}
        disabled={!editable || uploading > 0}
        beforeUpload={(file, list) => {
          if (file === list[0]) void uploadBatch(list);
          return false;
        }}
        data-testid="docs-upload"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t("docs.drop")}</p>
        <p className="ant-upload-hint">{t("docs.hint")}</p>
      </Upload.Dragger>
      <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t("docs.advice")} data-testid="docs-advice" />
      <Table<TTrainingDocumentView>
        rowKey="id"
        loading={uploading > 0}
        dataSource={documents}
        pagination={documents.length > 20 ? { pageSize: 20 } : false}
        locale={{ emptyText: <Empty description={t("docs.empty")} /> }}
        scroll={narrow ? { x: 560 } : undefined}
        onRow={(d) => ({ "data-testid": "doc-row", "data-state": d.state }) as never}
        columns={[
          {
            title: t("docs.name"),
            key: "name",
            render: (_, d) => (
              <Tooltip title={d.name}>
                <span>{displayFileName(d.name)}</span>
              </Tooltip>
            ),
          },
          { title: t("docs.size"), key: "size", width: 100, render: (_, d) => formatBytes(d.size, i18n.language) },
          {
            title: t("docs.state"),
            key: "state",
            width: 110,
            render: (_, d) => (
              <Tag color={DOC_COLORS[d.state]} data-testid="doc-state">
                {t(`docs.states.${d.state}`)}
              </Tag>
            ),
          },
          { title: t("docs.chars"), key: "chars", width: 220, render: (_, d) => chars(d) },
          {
            title: t("list.actions"),
            key: "actions",
            width: 100,
            render: (_, d) => (
              <Popconfirm
                title={t("docs.delete_confirm", { name: displayFileName(d.name) })}
                onConfirm={() => remove(d)}
                disabled={!editable}
                okButtonProps={{ "data-testid": "doc-delete-ok" } as never}
              >
                <Button type="link" size="small" danger icon={<DeleteOutlined />} disabled={!editable} data-testid="doc-delete">
                  {t("actions.delete")}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
    </Card>
  );
}
