// A node's contents: at most two pieces of material (a title and a text) its speakers read,
// counted together with every other node's against the workshop's 30,000 characters. A content
// can be typed, or read from a txt, docx, pdf or xlsx file (the server reads it and answers the
// text; nothing is kept until the draft is saved).
import { DeleteOutlined, FileTextOutlined, UploadOutlined } from "@ant-design/icons";
import { App, Button, Form, Input, Space, Upload } from "antd";
import { useTranslation } from "react-i18next";
import { postFormData } from "../../lib/post-form-data";
import { useMutation } from "../../lib/use-mutation";
import { TEXT_FILE_LIMITS } from "../../../server/uploads/upload-limits";
import type { TNodeContent } from "../../../server/workshops/workshops.schema";
import { uiLocale } from "../../i18n/config";
import { WORKSHOP_LIMITS } from "../../../server/workshops/workshops.schema";
import { countContentChars, type TNodeValues } from "./definition-values";

const CONTENT_FILES = ".txt,.docx,.pdf,.xlsx";

/** Reads a picked file into a new content of the node. */
function ImportButton({ disabled, onRead }: { disabled: boolean; onRead: (content: TNodeContent) => void }) {
  const { t } = useTranslation("workshops");
  const { message } = App.useApp();
  const read = useMutation(async (file: File) => {
    const form = new FormData();
    form.append("file", file);
    onRead(await postFormData<TNodeContent>("/api/v1/workshop/contents", form, { fallbackError: t("editor.contents.import_failed") }));
  });
  return (
    <Upload
      accept={CONTENT_FILES}
      showUploadList={false}
      disabled={disabled}
      beforeUpload={(file) => {
        if (file.size > TEXT_FILE_LIMITS.maxBytes) message.error(t("file_too_large", { ns: "errors" }));
        else void read.run(file);
        return Upload.LIST_IGNORE;
      }}
    >
      <Button icon={<UploadOutlined />} loading={read.busy} disabled={disabled} data-testid="workshop-content-import">
        {t("editor.contents.import")}
      </Button>
    </Upload>
  );
}

export function NodeContents({ index }: { index: number }) {
  const { t, i18n } = useTranslation("workshops");
  const nodes = Form.useWatch("nodes") as TNodeValues[] | undefined;
  const total = countContentChars(nodes);
  const over = total > WORKSHOP_LIMITS.contentChars;
  const number = (n: number) => n.toLocaleString(uiLocale(i18n.language));
  return (
    <Form.List name={[index, "contents"]}>
      {(fields, { add, remove }, { errors }) => (
        <div className="ws-contents" data-testid="workshop-node-contents">
          <div className="ws-contents__head">
            <b>{t("editor.contents.title")}</b>
            <span className={over ? "ws-counter is-over" : "ws-counter"} data-testid="workshop-content-counter">
              {t("editor.contents.counter", { used: number(total), max: number(WORKSHOP_LIMITS.contentChars) })}
            </span>
          </div>
          <p className="ws-section__lead">{t("editor.contents.lead")}</p>
          {fields.map((field) => (
            <div key={field.key} className="ws-content" data-testid="workshop-content">
              <div className="ws-content__row">
                <Form.Item name={[field.name, "title"]} label={t("editor.contents.item_title")} className="ws-content__title" required>
                  <Input maxLength={60} data-testid="workshop-content-title" />
                </Form.Item>
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  onClick={() => remove(field.name)}
                  aria-label={t("editor.contents.remove")}
                  className="ws-content__remove"
                />
              </div>
              <Form.Item name={[field.name, "text"]} label={t("editor.contents.item_text")} required>
                <Input.TextArea autoSize={{ minRows: 3, maxRows: 12 }} data-testid="workshop-content-text" />
              </Form.Item>
            </div>
          ))}
          <Form.ErrorList errors={errors} />
          <Space wrap>
            <Button
              icon={<FileTextOutlined />}
              onClick={() => add({ title: "", text: "" })}
              disabled={fields.length >= WORKSHOP_LIMITS.contentsPerNode}
              data-testid="workshop-content-add"
            >
              {t("editor.contents.add", { count: fields.length, max: WORKSHOP_LIMITS.contentsPerNode })}
            </Button>
            <ImportButton disabled={fields.length >= WORKSHOP_LIMITS.contentsPerNode} onRead={(content) => add(content)} />
            <span className="ws-section__count">{t("editor.contents.import_hint")}</span>
          </Space>
        </div>
      )}
    </Form.List>
  );
}
