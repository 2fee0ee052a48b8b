import { App, Button, Card, Form, Input, Select } from "antd";
import { useTranslation } from "react-i18next";
import { LANGUAGE_COOKIE, LANGUAGE_LABELS, LANGUAGES } from "../../i18n/config";
import { apiRequest } from "../../lib/api-client";
import { useMutation } from "../../lib/use-mutation";
import { writePreferenceCookie } from "../../lib/ui-size";
import { zodRule } from "../../lib/zod-rule";
import { ZUpdateProfileInput } from "../../../server/accounts/settings.schema";

export function ProfileCard({ nickname, language, account }: { nickname: string; language: string; account: string }) {
  const { t } = useTranslation("auth");
  const { message } = App.useApp();
  const { run: onFinish } = useMutation(async (values: { nickname: string; language: string }) => {
    await apiRequest("/api/v1/account/profile", { method: "PUT", body: values });
    message.success(t("shell.saved", { ns: "common" }));
    if (values.language !== language) {
      writePreferenceCookie(LANGUAGE_COOKIE, values.language);
      window.location.reload();
    }
  });
  return (
    <Card title={t("settings.profile")} data-testid="profile-card">
      <Form layout="vertical" initialValues={{ nickname, language }} onFinish={onFinish} style={{ maxWidth: 420 }}>
        <Form.Item label={t("fields.account")}>
          <Input value={account} disabled />
        </Form.Item>
        <Form.Item name="nickname" label={t("fields.nickname")} rules={[zodRule(ZUpdateProfileInput.shape.nickname.unwrap(), t)]}>
          <Input maxLength={20} data-testid="nickname" />
        </Form.Item>
        <Form.Item name="language" label={t("fields.language")}>
          <Select options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_LABELS[l] }))} />
        </Form.Item>
        <Button type="primary" htmlType="submit" data-testid="save-profile">
          {t("settings.save")}
        </Button>
      </Form>
    </Card>
  );
}
