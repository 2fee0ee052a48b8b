import { Checkbox, Form } from "antd";
import { Trans, useTranslation } from "react-i18next";
import { AppLink } from "../app-link";

/** The user agreement and privacy policy must be accepted before login or registration. */
export function AgreementCheckbox() {
  const { t } = useTranslation("auth");
  return (
    <Form.Item
      name="agreed"
      valuePropName="checked"
      rules={[{ validator: async (_r, v) => (v ? undefined : Promise.reject(new Error(t("validation.agreement", { ns: "errors" })))) }]}
    >
      <Checkbox data-testid="agreement">
        <Trans
          t={t}
          i18nKey="agreement"
          components={{
            terms: <AppLink to="/terms" target="_blank" rel="noreferrer" />,
            policy: <AppLink to="/policy" target="_blank" rel="noreferrer" />,
          }}
        />
      </Checkbox>
    </Form.Item>
  );
}
