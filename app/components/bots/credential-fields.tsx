// Each platform's credential fields with a word on where its admin console shows them. Used by the
// create form and, with the stored values masked, by the bot page's edit: a secret left empty keeps
// the stored one (the service fills it back in).
import { Alert, Form, Input, Radio, Switch } from "antd";
import { useTranslation } from "react-i18next";
import { SECRET_FIELDS, type TBotChannel } from "../../../server/bots/bots.schema";

type TField = { name: string; kind?: "text" | "secret" | "mode" | "switch"; required?: boolean; webhookOnly?: boolean };

export const CREDENTIAL_FIELDS: Record<TBotChannel, TField[]> = {
  wechat: [],
  wecom: [
    { name: "corp_id", required: true },
    { name: "agent_id", required: true },
    { name: "secret", required: true },
    { name: "token", required: true },
    { name: "encoding_aes_key", required: true },
  ],
  dingtalk: [{ name: "client_id", required: true }, { name: "client_secret", required: true }, { name: "card_template_id" }],
  feishu: [
    { name: "app_id", required: true },
    { name: "app_secret", required: true },
    { name: "mode", kind: "mode" },
    { name: "verification_token", webhookOnly: true, required: true },
    { name: "encrypt_key", webhookOnly: true },
    { name: "stream_card", kind: "switch" },
  ],
};

const isSecret = (channel: TBotChannel, name: string) => SECRET_FIELDS[channel].includes(name);

/** The form's starting values: fresh defaults, or the stored ones (masked secrets left empty). */
export function credentialInitial(channel: TBotChannel, masked?: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of CREDENTIAL_FIELDS[channel]) {
    const stored = masked?.[f.name];
    if (f.kind === "switch") out[f.name] = stored === undefined ? true : stored === "true";
    else if (f.kind === "mode") out[f.name] = stored || "websocket";
    else out[f.name] = stored === undefined || isSecret(channel, f.name) ? "" : stored;
  }
  return out;
}

export function CredentialFields({ channel, masked }: { channel: TBotChannel; masked?: Record<string, string> }) {
  const { t } = useTranslation("bots");
  const mode = Form.useWatch(["credentials", "mode"]) as string | undefined;
  const fields = CREDENTIAL_FIELDS[channel];
  if (!fields.length)
    return (
      <Alert
        type="info"
        showIcon
        className="bots-alert"
        message={t("cred.wechat.none")}
        description={t("cred.wechat.none_hint")}
        data-testid="bot-cred-wechat"
      />
    );
  return (
    <div data-testid={`bot-cred-${channel}`}>
      <Alert type="info" showIcon className="bots-alert" message={t(`cred.${channel}.guide_title`)} description={t(`cred.${channel}.guide`)} />
      {fields.map((f) => {
        if (f.webhookOnly && (mode ?? "websocket") !== "webhook") return null;
        const label = t(`cred.${channel}.${f.name}.label`);
        const help = t(`cred.${channel}.${f.name}.help`);
        const secret = isSecret(channel, f.name);
        const keep = secret && masked?.[f.name] ? t("cred.keep_secret", { masked: masked[f.name] }) : "";
        if (f.kind === "switch")
          return (
            <Form.Item key={f.name} name={["credentials", f.name]} label={label} extra={help} valuePropName="checked">
              <Switch data-testid={`bot-cred-${f.name}`} />
            </Form.Item>
          );
        if (f.kind === "mode")
          return (
            <Form.Item key={f.name} name={["credentials", f.name]} label={label} extra={help}>
              <Radio.Group
                data-testid={`bot-cred-${f.name}`}
                options={["websocket", "webhook"].map((m) => ({ value: m, label: t(`cred.feishu.mode.${m}`) }))}
              />
            </Form.Item>
          );
        return (
          <Form.Item key={f.name} name={["credentials", f.name]} label={label} extra={keep ? `${help} ${keep}` : help} required={f.required && !keep}>
            {secret ? (
              <Input.Password autoComplete="new-password" placeholder={masked?.[f.name] || undefined} data-testid={`bot-cred-${f.name}`} />
            ) : (
              <Input autoComplete="off" data-testid={`bot-cred-${f.name}`} />
            )}
          </Form.Item>
        );
      })}
    </div>
  );
}
