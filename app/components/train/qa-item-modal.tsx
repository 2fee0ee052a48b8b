// Adds or edits one Q&A item; the server's refusals (a repeated question) land on their field.
import { App, Form, Input, Modal } from "antd";
import { useTranslation } from "react-i18next";
import { ApiError, fieldErrorsOf } from "../../lib/api-client";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import { zodRule } from "../../lib/zod-rule";
import { QA_ANSWER_MAX, QA_QUESTION_MAX, ZQaAnswer, ZQaQuestion, type TQaItemView } from "../../../server/knowledge/training-sets.schema";

type TValues = { question: string; answer: string };
type TProps = { setId: string; item: TQaItemView | "new" | null; onClose: () => void; onSaved: () => void };

/** Mounted only while open, so each item gets a fresh form (and nothing renders on the server). */
export function QaItemModal(props: TProps) {
  return props.item ? <QaItemDialog key={props.item === "new" ? "new" : props.item.id} {...props} item={props.item} /> : null;
}

function QaItemDialog({ setId, item, onClose, onSaved }: TProps & { item: TQaItemView | "new" }) {
  const { t } = useTranslation("train");
  const { message } = App.useApp();
  const [form] = Form.useForm<TValues>();
  const save = useMutation(
    async (values: TValues) => {
      if (item === "new") await callTrpc(() => trpc.trainingSets.qa.add.mutate({ id: setId, ...values }));
      else await callTrpc(() => trpc.trainingSets.qa.update.mutate({ id: setId, itemId: item.id, ...values }));
      message.success(item === "new" ? t("qa.added") : t("qa.updated"));
      onSaved();
      onClose();
    },
    {
      onError: (err) => {
        const fields = fieldErrorsOf(err).filter((f) => f.path === "question" || f.path === "answer");
        if (err instanceof ApiError && fields.length)
          form.setFields(fields.map((f) => ({ name: f.path as keyof TValues, errors: [/^[a-z_.]+$/.test(f.message) ? err.description : f.message] })));
      },
    },
  );
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (values) await save.run(values);
  };

  return (
    <Modal
      open
      title={item === "new" ? t("qa.add_title") : t("qa.edit_title")}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={save.busy}
      destroyOnHidden
      okButtonProps={{ "data-testid": "qa-save" } as never}
    >
      <Form<TValues>
        form={form}
        layout="vertical"
        initialValues={item === "new" ? { question: "", answer: "" } : { question: item.question, answer: item.answer }}
      >
        <Form.Item name="question" label={t("qa.question")} rules={[zodRule(ZQaQuestion, t)]} required>
          <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} maxLength={QA_QUESTION_MAX} showCount data-testid="qa-question" />
        </Form.Item>
        <Form.Item name="answer" label={t("qa.answer")} rules={[zodRule(ZQaAnswer, t)]} required>
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} maxLength={QA_ANSWER_MAX} showCount data-testid="qa-answer" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
