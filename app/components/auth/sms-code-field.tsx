import { App, Button, Form, Input, Space } from "antd";
import type { FormInstance } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ZPhone, ZSmsCode } from "../../../server/accounts/accounts.schema";
import { apiRequest } from "../../lib/api-client";
import { useMutation } from "../../lib/use-mutation";
import { zodRule } from "../../lib/zod-rule";

/** Phone and code fields with a send button that counts down the minute between codes. */
export function SmsCodeFields({
  form,
  purpose,
  phoneLabel,
}: {
  form: FormInstance;
  purpose: "login" | "register" | "reset_password" | "bind_phone";
  phoneLabel?: string;
}) {
  const { t } = useTranslation("auth");
  const { message } = App.useApp();
  const [wait, setWait] = useState(0);
  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  const sendCode = useMutation(
    async (phone: string) => {
      const res = await apiRequest<{ retryAfterSeconds: number }>("/api/v1/auth/sms/send", { body: { phone, purpose } });
      message.success(t("sms.sent"));
      setWait(res.retryAfterSeconds);
    },
    { fallback: t("errors.network", { ns: "auth" }) },
  );
  const send = async () => {
    const phone = await form.validateFields(["phone"]).then(
      (v) => v.phone as string,
      () => null,
    );
    if (phone) await sendCode.run(phone);
  };

  return (
    <>
      <Form.Item name="phone" label={phoneLabel ?? t("fields.phone")} rules={[zodRule(ZPhone, t)]}>
        <Input inputMode="tel" autoComplete="tel" placeholder={t("fields.phone_placeholder")} data-testid="phone" />
      </Form.Item>
      <Form.Item label={t("fields.code")} required>
        <Space.Compact style={{ width: "100%" }}>
          <Form.Item name="code" noStyle rules={[zodRule(ZSmsCode, t)]}>
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} placeholder={t("fields.code_placeholder")} data-testid="sms-code" />
          </Form.Item>
          <Button onClick={send} loading={sendCode.busy} disabled={wait > 0} data-testid="send-code" style={{ minWidth: 120 }}>
            {wait > 0 ? t("sms.resend_in", { seconds: wait }) : t("sms.send")}
          </Button>
        </Space.Compact>
      </Form.Item>
    </>
  );
}
