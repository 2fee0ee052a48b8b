// A workshop's information (/createWork, ?id= edits): name, description and icon, checked in the
// browser by the schema the server uses. A new workshop goes on to its roles and nodes.
import { ArrowLeftOutlined } from "@ant-design/icons";
import { App, Button, Card, Form, Input, Space } from "antd";
import { useTranslation } from "react-i18next";
import { fieldErrorsOf } from "../../lib/api-client";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import { zodRule } from "../../lib/zod-rule";
import { ImageField } from "../apps/app-form/image-field";
import { useLeaveGuard } from "../agent-editor/use-leave-guard";
import { WORKSHOP_LIMITS, ZWorkshopInput, type TWorkshopInput } from "../../../server/workshops/workshops.schema";
import { WORKSHOP_LIST_PATH, useWorkshopNavigate, workshopEditorPath } from "./workshop-links";
import { useState } from "react";
import "./workshops.css";

type TInfo = { id: string; name: string; description: string; iconUrl: string } | null;

export function WorkshopInfoForm({ workshop }: { workshop: TInfo }) {
  const { t } = useTranslation("workshops");
  const { message } = App.useApp();
  const navigate = useWorkshopNavigate();
  const [form] = Form.useForm<TWorkshopInput>();
  const [dirty, setDirty] = useState(false);
  const guard = useLeaveGuard(dirty);
  const save = useMutation(
    async (input: TWorkshopInput) => {
      const { id } = workshop
        ? await callTrpc(() => trpc.workshops.update.mutate({ ...input, id: workshop.id }))
        : await callTrpc(() => trpc.workshops.create.mutate(input));
      guard.release();
      setDirty(false);
      message.success(t(workshop ? "info.saved" : "info.created"));
      navigate(workshop ? WORKSHOP_LIST_PATH : workshopEditorPath(id));
    },
    {
      onError: (err) => {
        const fields = fieldErrorsOf(err);
        form.setFields(fields.map((f) => ({ name: f.path as keyof TWorkshopInput, errors: [f.message] })));
        return fields.length > 0;
      },
    },
  );
  const submit = (values: TWorkshopInput) => {
    const parsed = ZWorkshopInput.safeParse(values);
    if (parsed.success) void save.run(parsed.data);
  };
  return (
    <div className="console__page ws-page ws" data-testid="workshop-info-page">
      <Button type="link" className="ws-back" icon={<ArrowLeftOutlined />} onClick={() => navigate(WORKSHOP_LIST_PATH)}>
        {t("info.back")}
      </Button>
      <h1 className="console__title">{workshop ? t("info.edit_title") : t("info.create_title")}</h1>
      <p className="console__hint">{workshop ? t("info.edit_lead") : t("info.create_lead")}</p>
      <Card className="ws-info">
        <Form
          form={form}
          layout="vertical"
          initialValues={{ name: workshop?.name ?? "", description: workshop?.description ?? "", icon_url: workshop?.iconUrl ?? "" }}
          onFinish={submit}
          onValuesChange={() => setDirty(true)}
          data-testid="workshop-info-form"
        >
          <Form.Item name="name" label={t("info.name")} required rules={[zodRule(ZWorkshopInput.shape.name, t)]}>
            <Input maxLength={WORKSHOP_LIMITS.name} showCount placeholder={t("info.name_placeholder")} data-testid="workshop-name" />
          </Form.Item>
          <Form.Item name="description" label={t("info.description")} rules={[zodRule(ZWorkshopInput.shape.description, t)]}>
            <Input.TextArea
              autoSize={{ minRows: 3, maxRows: 8 }}
              maxLength={WORKSHOP_LIMITS.description}
              showCount
              placeholder={t("info.description_hint")}
              data-testid="workshop-description"
            />
          </Form.Item>
          <Form.Item name="icon_url" label={t("info.icon")}>
            <ImageField hint={t("info.icon_hint")} testId="workshop-icon" purpose="icon" />
          </Form.Item>
          <Space wrap>
            <Button type="primary" htmlType="submit" loading={save.busy} data-testid="workshop-info-save">
              {workshop ? t("info.save") : t("info.create")}
            </Button>
            <Button onClick={() => navigate(workshop ? workshopEditorPath(workshop.id) : WORKSHOP_LIST_PATH)}>
              {workshop ? t("info.to_editor") : t("info.cancel")}
            </Button>
          </Space>
        </Form>
      </Card>
    </div>
  );
}
