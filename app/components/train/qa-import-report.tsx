// The import's report: how many rows were added and refused, and each row with its reason.
import { Modal, Segmented, Table, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { TQaImportReport, TQaImportRow } from "../../../server/knowledge/training-sets.schema";

export function QaImportReport({ report, onClose }: { report: TQaImportReport | null; onClose: () => void }) {
  const { t } = useTranslation("train");
  const [filter, setFilter] = useState<"all" | "refused">("refused");
  const rows = report ? (filter === "refused" && report.refused > 0 ? report.rows.filter((r) => r.status === "refused") : report.rows) : [];
  return (
    <Modal
      open={Boolean(report)}
      title={t("import.title")}
      onCancel={onClose}
      onOk={onClose}
      cancelButtonProps={{ style: { display: "none" } }}
      width={760}
      data-testid="qa-import-report"
    >
      {report && (
        <>
          <div className="train-report__summary">
            <Tag color="success" data-testid="qa-import-summary">
              {t("import.summary", { added: report.added, refused: report.refused })}
            </Tag>
            {report.refused > 0 && report.added > 0 && (
              <Segmented
                size="small"
                value={filter}
                onChange={(v) => setFilter(v as "all" | "refused")}
                options={[
                  { value: "refused", label: t("import.only_refused") },
                  { value: "all", label: t("import.all_rows") },
                ]}
              />
            )}
          </div>
          <Table<TQaImportRow>
            rowKey="row"
            size="small"
            dataSource={rows}
            pagination={rows.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
            scroll={{ x: 520 }}
            onRow={(r) => ({ "data-testid": "qa-import-row", "data-row": r.row, "data-status": r.status }) as never}
            columns={[
              { title: t("import.row"), dataIndex: "row", width: 70 },
              { title: t("import.question"), dataIndex: "question", ellipsis: true },
              {
                title: t("import.result"),
                key: "result",
                width: 240,
                render: (_, r) =>
                  r.status === "added" ? (
                    <Tag color="success">{t("import.added")}</Tag>
                  ) : (
                    <span>
                      <Tag color="error">{t("import.refused")}</Tag>
                      {t(`import.reasons.${r.reason}`)}
                      {r.duplicate_of ? ` (${t("import.duplicate_of", { row: r.duplicate_of })})` : ""}
                    </span>
                  ),
              },
            ]}
          />
        </>
      )}
    </Modal>
  );
}
