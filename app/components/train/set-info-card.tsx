// Name and introduction of a set: creates the set when there is none yet, saves them otherwise.
import { Button, Card, Form, Input, App } from "antd";
import { useTranslation } from "react-i18next";
import { fieldErrorsOf } from "../../lib/api-client";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import { zodRule } from "../../lib/zod-rule";
import {
  TRAINING_SET_INTRO_MAX,
  TRAINING_SET_NAME_MAX,
  ZCreateTrainingSetInput,
  type TTrainingSetSummary,
} from "../../../server/knowledge/training-sets.schema";

type TProps = {
  type: "standard" | "smart";
  set: Pick<TTrainingSetSummary, "id" | "name" | "introduction"> | null;
  onSaved: (set: TTrainingSetSummary, created: boolean) => void;
  disabled?: boolean;
};
type TValues = { name: string; introduction: string };

export function SetInfoCard({ type, set, onSaved, disabled }: TProps) {
  const { t } = useTranslation("train");
  const { message } = App.useApp();
  const [form] = Form.useForm<TValues>();
  const shape = ZCreateTrainingSetInput.shape;

  const { run: submit, busy } = useMutation(
    async (values: TValues) => {
      const saved = set
        ? await callTrpc(() => trpc.trainingSets.update.mutate({ id: set.id, ...values }))
        : await callTrpc(() => trpc.trainingSets.create.mutate({ type, ...values }));
      message.success(set ? t("done.saved") : t("info.created"));
      onSaved(saved, !set);
    },
    {
      onError: (err) => {
        const fields = fieldErrorsOf(err);
        if (fields.length) form.setFields(fields.map((f) => ({ name: f.path as keyof TValues, errors: [f.message] })));
      },
    },
  );

  return (
    <Card title={t("info.title")} data-testid="train-info">
      <Form<TValues>
        form={form}
        layout="vertical"
        initialValues={{ name: set?.name ?? "", introduction: set?.introduction ?? "" }}
        onFinish={(v) => void submit(v)}
        disabled={disabled}
      >
        <Form.Item name="name" label={t("info.name")} rules={[zodRule(shape.name, t)]} required>
          <Input maxLength={TRAINING_SET_NAME_MAX} showCount placeholder={t("info.name_placeholder")} data-testid="train-name-input" />
        </Form.Item>
        <Form.Item name="introduction" label={t("info.introduction")} rules={[zodRule(shape.introduction, t)]}>
          <Input.TextArea
            maxLength={TRAINING_SET_INTRO_MAX}
            showCount
            autoSize={{ minRows: 2, maxRows: 5 }}
            placeholder={t("info.introduction_placeholder")}
            data-testid="train-intro-input"
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} data-testid="train-info-submit">
          {set ? t("info.save") : t("info.create")}
        </Button>
      </Form>
    </Card>
  );
}
