// /setup: a fresh install's first platform administrator, made with the one-time code from the
// server log (server/platform/setup.service.ts). Once an administrator exists the page is not found.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Alert, Button, Form, Input, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { NewPasswordFields } from "../../components/auth/new-password-fields";
import { apiRequest, fieldErrorsOf } from "../../lib/api-client";
import { useMutation } from "../../lib/use-mutation";
import { zodRule } from "../../lib/zod-rule";
import { ZAccountName, ZStrictPassword } from "../../../server/accounts/accounts.schema";
import { ZSetupCode } from "../../../server/platform/setup.schema";
import { isSetupOpen } from "../../../server/platform/setup.service";

export const handle = { i18n: ["auth"] };

export async function loader(_args: LoaderFunctionArgs) {
  if (!(await isSetupOpen())) throw new Response("Not Found", { status: 404 });
  return null;
}

type TValues = { code: string; account: string; nickname?: string; password: string; confirm: string };

export default function Setup() {
  const { t } = useTranslation("auth");
  const [form] = Form.useForm<TValues>();
  // The button keeps spinning while the page leaves for the workspace.
  const [leaving, setLeaving] = useState(false);
  const setup = useMutation(
    async (values: TValues) => {
      await apiRequest("/api/v1/setup", { body: values });
      setLeaving(true);
      // A full load, so every part of the page sees the new session.
      window.location.assign("/workspace");
    },
    {
      report: "inline",
      onError: (err) => {
        const fields = fieldErrorsOf(err);
        if (fields.length) form.setFields(fields.map((f) => ({ name: f.path as keyof TValues, errors: [f.message] })));
        return fields.length > 0;
      },
    },
  );
  const { error, setError } = setup;
  const pending = setup.busy || leaving;
  const onFinish = (values: TValues) => setup.run(values);
  return (
    <>
      <h1 className="auth__title">{t("first_run.title")}</h1>
      <p className="auth__subtitle">{t("first_run.subtitle")}</p>
      <Form form={form} layout="vertical" onFinish={onFinish} onValuesChange={() => setError(null)} requiredMark={false} data-testid="setup">
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="form-error" />}
        <Form.Item name="code" label={t("first_run.code")} extra={t("first_run.code_hint")} rules={[zodRule(ZSetupCode, t)]}>
          <Input autoComplete="one-time-code" autoCapitalize="characters" spellCheck={false} placeholder="XXXX-XXXX" data-testid="setup-code" />
        </Form.Item>
        <Form.Item name="account" label={t("fields.account")} extra={t("register.account_hint")} rules={[zodRule(ZAccountName, t)]}>
          <Input autoComplete="username" data-testid="account" />
        </Form.Item>
        <Form.Item name="nickname" label={t("first_run.nickname_optional")}>
          <Input maxLength={20} data-testid="nickname" />
        </Form.Item>
        <NewPasswordFields schema={ZStrictPassword} label={t("fields.password")} extra={t("register.password_hint_strict")} />
        <Typography.Paragraph type="secondary">{t("first_run.rights")}</Typography.Paragraph>
        <Button type="primary" htmlType="submit" block size="large" loading={pending} data-testid="submit">
          {t("first_run.submit")}
        </Button>
      </Form>
    </>
  );
}
