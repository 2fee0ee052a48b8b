// Create or edit a channel in a drawer, validated as you type with the server's schema. The key is
// write-only: editing leaves it empty, and an empty key keeps the stored one. A media provider's
// type (Kling, DashScope, SD WebUI, ComfyUI) changes what the key means and where its API usually is.
import type { Rule } from "antd/es/form";
import type { TFunction } from "i18next";
import { App, Button, Drawer, Form, Input, InputNumber, Select, Space } from "antd";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { fieldErrorsOf } from "../../lib/api-client";
import { useMutation } from "../../lib/use-mutation";
import { useIsMobi } from "../app-link";
import {
  CHANNEL_FIELDS,
  CHANNEL_TYPES,
  findChannelKeyIssue,
  isMediaChannelType,
  MEDIA_CHANNEL_BASE_URLS,
  ZBaseUrl,
  ZChannelWeight,
  type TChannelType,
} from "../../../server/models/models.schema";
import { channelsApi, type TChannelRow, type TChannelScope } from "./models-api";
import { requiredRule } from "./form-rules";

export type TModelOption = { key: string; display_name: string };

type TProps = {
  scope: TChannelScope;
  /** null: closed; "new": a new channel; otherwise the channel being edited. */
  editing: TChannelRow | "new" | null;
  models: TModelOption[];
  onClose: () => void;
  onSaved: () => void;
};

const shape = CHANNEL_FIELDS;

/** What to type in the key field for each media provider; chat upstreams take an API key. */
const KEY_PLACEHOLDERS: Partial<Record<TChannelType, string>> = {
  kling: "accessKey:secretKey",
  dashscope: "sk-...",
  sdwebui: "user:password",
  comfyui: "token",
  heygen: "X-Api-Key",
  heygem: "token",
};

/** The key's rule depends on the type: required for most, optional for self-hosted servers, two halves for Kling. */
function keyRule(readType: () => TChannelType, keeping: boolean, t: TFunction): Rule {
  return {
    validator: async (_rule, value) => {
      // Read at validation time: a type change re-checks the key (dependencies) before the next render.
      const type = readType();
      const key = typeof value === "string" ? value.trim() : "";
      if (!key && keeping) return;
      const issue = findChannelKeyIssue(type, key) ?? (shape.key.safeParse(key).success ? null : "validation.too_long");
      if (issue) throw new Error(t(issue, { ns: "errors" }));
    },
  };
}

export function ChannelFormDrawer({ scope, editing, models, onClose, onSaved }: TProps) {
  const { t } = useTranslation("models");
  const { message } = App.useApp();
  const mobi = useIsMobi();
  const [form] = Form.useForm();
  const existing = editing && editing !== "new" ? editing : null;
  const type: TChannelType = Form.useWatch("type", form) ?? existing?.type ?? "openai";
  const media = isMediaChannelType(type);

  useEffect(() => {
    if (!editing) return;
    form.resetFields();
    if (existing)
      form.setFieldsValue({
        name: existing.name,
        type: existing.type,
        base_url: existing.base_url,
        models: existing.models,
        weight: existing.weight,
        priority: existing.priority,
      });
  }, [editing, existing, form]);

  const { run: save, busy: saving } = useMutation(
    async (values: Record<string, unknown>) => {
      const body = { ...values, key: values.key ? values.key : undefined };
      if (existing) await channelsApi(scope).update(existing.id, body);
      else await channelsApi(scope).create(body);
      message.success(t("channels.saved"));
      onSaved();
    },
    {
      onError: (err) => {
        const fields = fieldErrorsOf(err);
        if (fields.length) form.setFields(fields.map((f) => ({ name: f.path.split(".")[0], errors: [f.message] })));
      },
    },
  );

  return (
    <Drawer
      open={Boolean(editing)}
      onClose={onClose}
      title={existing ? t("channels.edit_title", { name: existing.name }) : t("channels.add_title")}
      width={mobi ? "100%" : 480}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>{t("actions.cancel")}</Button>
          <Button type="primary" loading={saving} onClick={() => form.submit()} data-testid="channel-save">
            {t("actions.save")}
          </Button>
        </Space>
      }
    >
      <Form form={form} layout="vertical" onFinish={save} initialValues={{ type: "openai", weight: 1, priority: 0 }} data-testid="channel-form">
        <Form.Item name="name" label={t("channels.fields.name")} rules={[requiredRule(shape.name, t)]}>
          <Input maxLength={60} data-testid="channel-name" />
        </Form.Item>
        <Form.Item
          name="type"
          label={t("channels.fields.type")}
          rules={[requiredRule(shape.type, t)]}
          extra={media ? t(`channels.type_help.${type}`) : undefined}
        >
          <Select options={CHANNEL_TYPES.map((v) => ({ value: v, label: t(`channels.types.${v}`) }))} data-testid="channel-type" />
        </Form.Item>
        <Form.Item
          name="base_url"
          label={t("channels.fields.base_url")}
          rules={[requiredRule(ZBaseUrl, t)]}
          extra={
            media
              ? t("channels.base_url_media_hint", { url: MEDIA_CHANNEL_BASE_URLS[type] })
              : scope === "own"
                ? t("channels.base_url_public_hint")
                : t("channels.base_url_hint")
          }
        >
          <Input placeholder={media ? MEDIA_CHANNEL_BASE_URLS[type] : "https://api.example.com/v1"} inputMode="url" data-testid="channel-base-url" />
        </Form.Item>
        <Form.Item
          name="key"
          label={t("channels.fields.key")}
          dependencies={["type"]}
          rules={[keyRule(() => form.getFieldValue("type") ?? "openai", Boolean(existing), t)]}
          extra={
            <>
              {media && <div>{t(`channels.key_help.${type}`)}</div>}
              <div>{existing ? keepHint(existing.key_hint, t) : t("channels.key_hint")}</div>
            </>
          }
        >
          <Input.Password
            autoComplete="off"
            placeholder={existing ? t("channels.key_keep_placeholder") : (KEY_PLACEHOLDERS[type] ?? "sk-...")}
            data-testid="channel-key"
          />
        </Form.Item>
        <Form.Item name="models" label={t("channels.fields.models")} rules={[requiredRule(shape.models, t)]}>
          <Select
            mode="multiple"
            allowClear
            optionFilterProp="label"
            options={models.map((m) => ({ value: m.key, label: `${m.display_name} · ${m.key}` }))}
            placeholder={t("channels.models_placeholder")}
            data-testid="channel-models"
          />
        </Form.Item>
        <Space size={16} align="start" wrap>
          <Form.Item name="weight" label={t("channels.fields.weight")} rules={[requiredRule(ZChannelWeight, t)]} tooltip={t("channels.weight_hint")}>
            <InputNumber precision={0} style={{ width: 160 }} data-testid="channel-weight" />
          </Form.Item>
          <Form.Item name="priority" label={t("channels.fields.priority")} rules={[requiredRule(shape.priority, t)]} tooltip={t("channels.priority_hint")}>
            <InputNumber precision={0} style={{ width: 160 }} data-testid="channel-priority" />
          </Form.Item>
        </Space>
      </Form>
    </Drawer>
  );
}

function keepHint(hint: string, t: TFunction) {
  return hint ? t("channels.key_keep_hint", { hint }) : t("channels.key_keep_none");
}
