// What the bot says and when: its name, the greeting sent when someone adds it or joins its group,
// and whether it answers every group message or only when mentioned. Then the
// platform's credentials, shown masked and editable (a secret left empty is kept).
import { EditOutlined } from "@ant-design/icons";
import { App, Button, Card, Descriptions, Form, Input, Radio, Space, type FormInstance } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { fieldErrorsOf } from "../../lib/api-client";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import { BOT_NAME_MAX, GREETING_MAX, ZBotUpdate, type TBotUpdate } from "../../../server/bots/bots.schema";
import { CREDENTIAL_FIELDS, CredentialFields, credentialInitial } from "./credential-fields";
import { clearChangedErrors, setFieldIssues } from "./form-errors";
import type { TBotView } from "./types";

type TValues = { name: string; greeting: string; group_reply: "mention" | "all" };

function showFieldIssues(form: FormInstance, err: unknown) {
  const issues = fieldErrorsOf(err);
  if (issues.length) setFieldIssues(form, issues);
}

export function BotSettingsCard({ bot, onSaved }: { bot: TBotView; onSaved: (bot: TBotView) => void }) {
  const { t } = useTranslation("bots");
  const { message } = App.useApp();
  const [form] = Form.useForm<TValues>();
  const update = useMutation(
    async (input: TBotUpdate) => {
      onSaved(await callTrpc(() => trpc.bots.update.mutate(input)));
      message.success(t("settings.saved"));
    },
    { onError: (err) => showFieldIssues(form, err) },
  );
  const saving = update.busy;

  const save = async (values: TValues) => {
    const checked = ZBotUpdate.safeParse({ bot_id: bot.id, ...values });
    if (!checked.success) {
      setFieldIssues(
        form,
        checked.error.issues.map((i) => ({ path: i.path.join("."), message: t(i.message, { ns: "errors" }) })),
      );
      return;
    }
    await update.run(checked.data);
  };

  return (
    <Card title={t("settings.title")} className="bots-section" data-testid="bot-settings">
      <Form
        form={form}
        layout="vertical"
        initialValues={{ name: bot.name, greeting: bot.greeting, group_reply: bot.group_reply }}
        onFinish={save}
        onValuesChange={(changed) => clearChangedErrors(form, changed)}
        data-testid="bot-settings-form"
      >
        <Form.Item name="name" label={t("create.name")} required>
          <Input maxLength={BOT_NAME_MAX} data-testid="bot-settings-name" />
        </Form.Item>
        <Form.Item name="greeting" label={t("create.greeting")} extra={t("create.greeting_hint")}>
          <Input.TextArea rows={3} maxLength={GREETING_MAX} placeholder={t("create.greeting_placeholder")} data-testid="bot-settings-greeting" />
        </Form.Item>
        <Form.Item name="group_reply" label={t("create.group_reply")} extra={t("create.group_reply_hint")}>
          <Radio.Group
            data-testid="bot-settings-group-reply"
            options={[
              { value: "mention", label: t("group_reply.mention") },
              { value: "all", label: t("group_reply.all") },
            ]}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="bot-settings-save">
          {t("settings.save")}
        </Button>
      </Form>
    </Card>
  );
}

export function BotCredentialsCard({ bot, onSaved }: { bot: TBotView; onSaved: (bot: TBotView) => void }) {
  const { t } = useTranslation("bots");
  const { message } = App.useApp();
  const [form] = Form.useForm<{ credentials: Record<string, unknown> }>();
  const [editing, setEditing] = useState(false);
  const { run: save, busy: saving } = useMutation(
    async () => {
      const { credentials } = form.getFieldsValue(true) as { credentials: Record<string, unknown> };
      // The server checks them against the platform's schema, keeping the secrets left empty.
      onSaved(await callTrpc(() => trpc.bots.update.mutate({ bot_id: bot.id, credentials })));
      message.success(t("settings.saved"));
      setEditing(false);
    },
    { onError: (err) => showFieldIssues(form, err) },
  );
  const fields = CREDENTIAL_FIELDS[bot.channel];
  if (!fields.length) return null;

  const shown = fields.filter((f) => bot.credentials_masked[f.name] !== undefined && bot.credentials_masked[f.name] !== "");
  return (
    <Card
      title={t("credentials.title")}
      className="bots-section"
      data-testid="bot-credentials"
      extra={
        !editing && (
          <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="bot-credentials-edit">
            {t("credentials.edit")}
          </Button>
        )
      }
    >
      {editing ? (
        <Form
          form={form}
          layout="vertical"
          initialValues={{ credentials: credentialInitial(bot.channel, bot.credentials_masked) }}
          onFinish={save}
          onValuesChange={(changed) => clearChangedErrors(form, changed)}
        >
          <CredentialFields channel={bot.channel} masked={bot.credentials_masked} />
          <Space>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="bot-credentials-save">
              {t("settings.save")}
            </Button>
            <Button onClick={() => setEditing(false)}>{t("settings.cancel")}</Button>
          </Space>
        </Form>
      ) : (
        <Descriptions column={1} size="small" bordered className="bots-creds" data-testid="bot-credentials-masked">
          {shown.map((f) => (
            <Descriptions.Item key={f.name} label={t(`cred.${bot.channel}.${f.name}.label`)}>
              <span data-testid={`bot-masked-${f.name}`}>
                {f.kind === "mode"
                  ? t(`cred.feishu.mode.${bot.credentials_masked[f.name]}`)
                  : f.kind === "switch"
                    ? t(bot.credentials_masked[f.name] === "true" ? "credentials.on" : "credentials.off")
                    : bot.credentials_masked[f.name]}
              </span>
            </Descriptions.Item>
          ))}
        </Descriptions>
      )}
    </Card>
  );
}
