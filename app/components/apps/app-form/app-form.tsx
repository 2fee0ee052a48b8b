// The app form of /create_app and /create_api: every App field, checked in the browser
// by the same schema the server uses (ZAppInput), so both refuse with the same message on the same
// field. API apps leave out what only an H5 page shows.
import { Alert, App, Button, Card, Form, Input, Select, Space } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { fieldErrorsOf } from "../../../lib/api-client";
import { callTrpc, trpc } from "../../../lib/trpc";
import { useMutation } from "../../../lib/use-mutation";
import { ZAppInput, type TAppInput, type TAppView } from "../../../../server/apps/apps.schema";
import { AccessSection, ChatSection, InputContentSection, TypeSettingsSection } from "./app-form-sections";
import { fromFormValues, type TAppFormValues } from "./form-values";
import { ImageField } from "./image-field";
import { AgentVariablesNote } from "./agent-variables-note";
import { useLeaveGuard } from "../../agent-editor/use-leave-guard";
import type { TAgentVariableNote } from "../../../../server/apps/agent-variables.service";
import "./app-form.css";

export type TWorkshopOption = { id: string; name: string; roleCount: number; nodeCount: number };

export type TAppFormOptions = {
  categories: Array<{ id: number; names: Record<string, string> }>;
  agents: Array<{ id: string; name: string; variables?: TAgentVariableNote[] }>;
  /** A workshop app's choices: the account's workshops. */
  workshops?: TWorkshopOption[];
};

/** A schema path (plans.0.price_micro) as the form's field name (plans, 0, price). */
function toFieldName(path: string): (string | number)[] {
  const parts = path.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  if (parts[0] === "plans" && parts[2] === "price_micro") parts[2] = "price";
  return parts;
}

export function AppForm({
  initial,
  unsaved = false,
  appId,
  state,
  options,
  onSaved,
}: {
  initial: TAppFormValues;
  /** The form starts with a change of its own (a picture handed over in the query) that is not saved yet. */
  unsaved?: boolean;
  appId?: string;
  state?: string;
  options: TAppFormOptions;
  onSaved: (app: TAppView) => void;
}) {
  const { t, i18n } = useTranslation("apps");
  const { message } = App.useApp();
  const [form] = Form.useForm<TAppFormValues>();
  const [dirty, setDirty] = useState(unsaved);
  const guard = useLeaveGuard(dirty);
  const type = initial.type;
  const h5Like = type !== "api";

  const showErrors = (fields: Array<{ path: string; message: string }>) => {
    const byField = new Map<string, { name: (string | number)[]; errors: string[] }>();
    for (const f of fields) {
      const name = toFieldName(f.path);
      const key = JSON.stringify(name);
      byField.set(key, { name, errors: [...(byField.get(key)?.errors ?? []), f.message] });
    }
    form.setFields([...byField.values()]);
    const first = [...byField.values()][0];
    if (first) form.scrollToField(first.name, { block: "center" });
    message.error(fields[0]?.message ?? t("form.fix_errors"));
  };

  const send = useMutation(
    async (app: TAppInput) => {
      const saved = appId ? await callTrpc(() => trpc.apps.update.mutate({ id: appId, app })) : await callTrpc(() => trpc.apps.create.mutate(app));
      message.success(t("form.saved"));
      guard.release();
      setDirty(false);
      onSaved(saved);
    },
    {
      onError: (err) => {
        const fields = fieldErrorsOf(err);
        if (fields.length) showErrors(fields);
        return fields.length > 0;
      },
    },
  );
  const saving = send.busy;

  const save = async () => {
    const values = { ...initial, ...form.getFieldsValue(true) } as TAppFormValues;
    const payload = fromFormValues(values);
    const checked = ZAppInput.safeParse(payload);
    if (!checked.success) return showErrors(checked.error.issues.map((i) => ({ path: i.path.join("."), message: t(i.message, { ns: "errors" }) })));
    await send.run(checked.data);
  };

  const categoryOptions = options.categories.map((c) => ({ value: c.id, label: c.names[i18n.language] ?? c.names.en ?? String(c.id) }));
  const agentOptions = options.agents.map((a) => ({ value: a.id, label: a.name }));
  const single = type !== "workshop";
  // A workshop app runs its workshop's agents: it picks a workshop instead.
  const picksAgents = type !== "workshop";

  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={{ ...initial, agent_ids: single ? initial.agent_ids[0] : initial.agent_ids }}
      className="app-form"
      data-testid="app-form"
      onFinish={save}
      onValuesChange={(changed) => {
        setDirty(true);
        form.setFields(Object.keys(changed).map((name) => ({ name, errors: [] })));
      }}
      scrollToFirstError
    >
      {state === "on_shelf" && (
        <Alert type="warning" showIcon className="app-form__notice" message={t("form.listed_edit_notice")} data-testid="app-form-listed-notice" />
      )}
      {picksAgents && !options.agents.length && <Alert type="info" showIcon className="app-form__notice" message={t("form.no_live_agents")} />}
      <Card title={t("form.sections.basics")} className="app-form__card">
        <Form.Item name="name" label={t("form.name")} required>
          <Input maxLength={29} showCount data-testid="app-name" />
        </Form.Item>
        <Form.Item name="name_en" label={t("form.name_en")}>
          <Input maxLength={60} data-testid="app-name-en" />
        </Form.Item>
        <Form.Item name="icon_url" label={t("form.icon")} required>
          <ImageField hint={t("form.icon_hint")} testId="app-icon" purpose="icon" />
        </Form.Item>
        <Form.Item name="introduction" label={t("form.introduction")} required extra={t("form.introduction_hint")}>
          <Input.TextArea rows={4} data-testid="app-introduction" />
        </Form.Item>
        <Form.Item name="introduction_en" label={t("form.introduction_en")}>
          <Input.TextArea rows={3} data-testid="app-introduction-en" />
        </Form.Item>
        <Form.Item name="category_id" label={t("form.category")} required>
          <Select options={categoryOptions} placeholder={t("form.choose")} data-testid="app-category" />
        </Form.Item>
        <Form.Item name="tags" label={t("form.tags")} required extra={t("form.tags_hint")}>
          <Select mode="tags" tokenSeparators={[",", "，"]} open={false} suffixIcon={null} data-testid="app-tags" />
        </Form.Item>
        {picksAgents && (
          <>
            <Form.Item name="agent_ids" label={t("form.agents")} required>
              <Select mode={single ? undefined : "multiple"} options={agentOptions} placeholder={t("form.choose")} data-testid="app-agent" />
            </Form.Item>
            <AgentVariablesNote agents={options.agents} type={type} />
          </>
        )}
        {type !== "api" && (
          <Form.Item name="platform" label={t("form.platform")}>
            <Select
              options={["web", "wechat", "wecom", "dingtalk", "feishu"].map((p) => ({ value: p, label: t(`platform.${p}`) }))}
              data-testid="app-platform"
            />
          </Form.Item>
        )}
      </Card>
      {/* A workshop app's page is the workshop's run page: no chat page to set up. */}
      {h5Like && picksAgents && <ChatSection />}
      <TypeSettingsSection type={type} workshops={options.workshops ?? []} />
      <AccessSection h5Like={h5Like} />
      {picksAgents && <InputContentSection />}
      <Space className="app-form__actions">
        <Button type="primary" htmlType="submit" loading={saving} data-testid="app-save">
          {appId ? t("form.save") : t("form.create")}
        </Button>
      </Space>
    </Form>
  );
}
