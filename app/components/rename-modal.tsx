// Renaming a named thing (a library item, a voice): checked as you type with the server's own rule,
// the server's refusal shown on the field. Each area passes its rule, its texts' namespace and its
// own rename call.
import { Form, Input, Modal } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ZodType } from "zod";
import { useMutation } from "../lib/use-mutation";

/** The rule's first complaint about the name, translated, or null when the name is good. */
export function checkName(rule: ZodType<string>, value: string, te: (key: string) => string) {
  const parsed = rule.safeParse(value);
  return parsed.success ? null : te(parsed.error.issues[0].message);
}

type TRenameModalProps = {
  item: { id: string; name: string } | null;
  rule: ZodType<string>;
  maxLength: number;
  /** The area's namespace: it holds rename_title, actions.save and actions.cancel, and the field's label under labelKey. */
  ns: string;
  labelKey: string;
  /** data-testid prefix: `<testId>-input` and `<testId>-save`. */
  testId: string;
  onRename: (id: string, name: string) => Promise<unknown>;
  onClose: () => void;
};

export function RenameModal({ item, rule, maxLength, ns, labelKey, testId, onRename, onClose }: TRenameModalProps) {
  const { t } = useTranslation(ns);
  const { t: te } = useTranslation("errors");
  const [name, setName] = useState("");
  const rename = useMutation(onRename, { report: "inline" });
  const { error, setError } = rename;
  useEffect(() => {
    setName(item?.name ?? "");
    setError(null);
  }, [item, setError]);

  const save = async () => {
    if (!item) return;
    const problem = checkName(rule, name, te);
    setError(problem);
    if (!problem) await rename.run(item.id, name);
  };
  return (
    <Modal
      open={Boolean(item)}
      title={t("rename_title")}
      okText={t("actions.save")}
      cancelText={t("actions.cancel")}
      onOk={save}
      onCancel={onClose}
      confirmLoading={rename.busy}
      destroyOnHidden
      okButtonProps={{ "data-testid": `${testId}-save` } as never}
    >
      <Form layout="vertical" onFinish={save}>
        <Form.Item label={t(labelKey)} validateStatus={error ? "error" : undefined} help={error ?? undefined}>
          <Input
            autoFocus
            value={name}
            maxLength={maxLength + 10}
            showCount={{ formatter: ({ count }) => `${count}/${maxLength}` }}
            onChange={(e) => {
              setName(e.target.value);
              setError(checkName(rule, e.target.value, te));
            }}
            onPressEnter={save}
            data-testid={`${testId}-input`}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
