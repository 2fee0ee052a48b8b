// /create_bot?new=1: a new bot. Name, agent (mine, with a live version), platform, the platform's
// credentials, group reply and greeting; the package price per year and the edition's bot count.
// Nothing is charged until the owner confirms the price, what it buys and the balance it comes
// from (bot-buy-confirm.tsx). The server decides (edition limit, first year paid from the wallet)
// and its refusals show here with their way out; nothing is created when it refuses.
import { ArrowLeftOutlined } from "@ant-design/icons";
import { Link } from "@remix-run/react";
import { Alert, App, Button, Card, Form, Input, Radio, Select } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { fieldErrorsOf } from "../../lib/api-client";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import { WALLET_CHANGED_EVENT } from "../money/recharge-api";
import { BOT_NAME_MAX, CREDENTIAL_SCHEMAS, GREETING_MAX, ZBotCreate, type TBotChannel, type TBotCreate } from "../../../server/bots/bots.schema";
import { BotBuyConfirm } from "./bot-buy-confirm";
import { forgetBotDraft, keepBotDraft, takeBotDraft } from "./bot-draft";
import { BotRefusal, useBotRefusal } from "./bot-refusal";
import { botPath, BOTS_PATH, useBotsHref, useBotsNavigate } from "./bot-links";
import { CredentialFields, credentialInitial } from "./credential-fields";
import { clearChangedErrors, setFieldIssues, type TFieldIssue } from "./form-errors";
import { PlatformPicker } from "./platform-picker";
import { QuoteLine } from "./quote-line";
import { formatMicro, type TAgentOption, type TBotQuote } from "./types";

type TValues = {
  name: string;
  agent_id?: string;
  channel: TBotChannel;
  credentials: Record<string, unknown>;
  group_reply: "mention" | "all";
  greeting: string;
};

export function BotCreatePage({ data }: { data: { agents: TAgentOption[]; quote: TBotQuote } }) {
  const { t } = useTranslation("bots");
  const { message } = App.useApp();
  const href = useBotsHref();
  const navigate = useBotsNavigate();
  const [form] = Form.useForm<TValues>();
  const channel = (Form.useWatch("channel", form) ?? "wechat") as TBotChannel;
  const [confirming, setConfirming] = useState<TBotCreate | null>(null);
  const { refusal, take, clear } = useBotRefusal();
  // Back from a top-up on the sandbox's cashier: the form as it was left.
  useEffect(() => {
    const draft = takeBotDraft();
    if (draft) form.setFieldsValue(draft);
  }, [form]);

  const showIssues = (issues: TFieldIssue[]) => {
    setFieldIssues(form, issues);
    message.error(issues[0]?.message ?? t("create.fix_errors"));
  };

  const submit = async () => {
    clear();
    const values = form.getFieldsValue(true) as TValues;
    const payload = { ...values, agent_id: values.agent_id ?? "" };
    const checked = ZBotCreate.safeParse(payload);
    const issues: TFieldIssue[] = checked.success ? [] : checked.error.issues.map((i) => ({ path: i.path.join("."), message: t(i.message, { ns: "errors" }) }));
    const creds = CREDENTIAL_SCHEMAS[values.channel].safeParse(values.credentials ?? {});
    if (!creds.success)
      issues.push(...creds.error.issues.map((i) => ({ path: ["credentials", ...i.path].join("."), message: t(i.message, { ns: "errors" }) })));
    if (issues.length || !checked.success) return showIssues(issues);
    setConfirming(checked.data);
  };

  const createBot = useMutation(
    async (input: TBotCreate) => {
      const created = await callTrpc(() => trpc.bots.create.mutate(input));
      forgetBotDraft();
      message.success(t("create.created"));
      // The first year was paid: the header's balance follows.
      window.dispatchEvent(new CustomEvent(WALLET_CHANGED_EVENT));
      navigate(botPath(created.bot_id));
    },
    {
      onError: (err) => {
        const fields = fieldErrorsOf(err);
        if (fields.length) showIssues(fields);
        return fields.length > 0 || take(err);
      },
    },
  );
  const saving = createBot.busy;
  const create = async (input: TBotCreate) => {
    await createBot.run(input);
    setConfirming(null);
  };

  const initial: TValues = {
    name: "",
    agent_id: data.agents.length === 1 ? data.agents[0].id : undefined,
    channel: "wechat",
    credentials: credentialInitial("wechat"),
    group_reply: "mention",
    greeting: "",
  };

  return (
    <div className="console__page bots-page" data-testid="bot-create">
      <Link to={href(BOTS_PATH)} className="bots-back" data-testid="bot-back">
        <ArrowLeftOutlined /> {t("page.back")}
      </Link>
      <h1 className="console__title">{t("create.title")}</h1>
      <QuoteLine quote={data.quote} />
      {!data.agents.length && (
        <Alert
          type="info"
          showIcon
          className="bots-alert"
          message={t("create.no_agents")}
          data-testid="bot-no-agents"
          action={
            <Link to={href("/creator")}>
              <Button size="small">{t("create.to_creator")}</Button>
            </Link>
          }
        />
      )}
      <Form
        form={form}
        layout="vertical"
        initialValues={initial}
        className="bots-form"
        data-testid="bot-form"
        onFinish={submit}
        onValuesChange={(changed: Partial<TValues>) => {
          // A new platform starts from its own blank credentials.
          if (changed.channel) form.setFieldValue("credentials", credentialInitial(changed.channel));
          clearChangedErrors(form, changed);
        }}
      >
        <Card title={t("create.basics")} className="bots-section">
          <Form.Item name="name" label={t("create.name")} required>
            <Input maxLength={BOT_NAME_MAX} showCount placeholder={t("create.name_placeholder")} data-testid="bot-name-input" />
          </Form.Item>
          <Form.Item name="agent_id" label={t("create.agent")} required extra={t("create.agent_hint")}>
            <Select
              options={data.agents.map((a) => ({ value: a.id, label: a.name }))}
              placeholder={t("create.choose")}
              data-testid="bot-agent"
              notFoundContent={t("create.no_agents")}
            />
          </Form.Item>
        </Card>
        <Card title={t("create.platform")} className="bots-section">
          <Form.Item name="channel" noStyle>
            <PlatformPicker />
          </Form.Item>
          <div className="bots-form__creds">
            <CredentialFields channel={channel} />
          </div>
        </Card>
        <Card title={t("create.behaviour")} className="bots-section">
          <Form.Item name="group_reply" label={t("create.group_reply")} extra={t("create.group_reply_hint")}>
            <Radio.Group
              data-testid="bot-group-reply"
              options={[
                { value: "mention", label: t("group_reply.mention") },
                { value: "all", label: t("group_reply.all") },
              ]}
            />
          </Form.Item>
          <Form.Item name="greeting" label={t("create.greeting")} extra={t("create.greeting_hint")}>
            <Input.TextArea rows={3} maxLength={GREETING_MAX} placeholder={t("create.greeting_placeholder")} data-testid="bot-greeting-input" />
          </Form.Item>
        </Card>
        <BotRefusal refusal={refusal} onClose={clear} />
        {confirming && (
          <BotBuyConfirm
            open
            quote={data.quote}
            name={confirming.name}
            channel={confirming.channel}
            busy={saving}
            onConfirm={() => void create(confirming)}
            onCancel={() => setConfirming(null)}
            onTopUp={() => keepBotDraft(form.getFieldsValue(true) as TValues)}
          />
        )}
        <div className="bots-form__actions">
          <Button type="primary" htmlType="submit" loading={saving} data-testid="bot-create-submit">
            {t("create.submit", { price: formatMicro(data.quote.price_year_micro) })}
          </Button>
          <span className="console__hint">{t("create.submit_hint", { days: data.quote.package_days })}</span>
        </div>
      </Form>
    </div>
  );
}
