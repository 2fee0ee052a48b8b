// Offered on the workspace while the account has no phone, right after registration included: a
// bound phone is how a forgotten password is reset. "Later" hides it in this browser only.
import { MobileOutlined } from "@ant-design/icons";
import { App, Button, Card, Modal } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { PhoneBindForm } from "../settings/phone-bind-form";

const DISMISSED_KEY = "zl_phone_prompt_dismissed";

export function PhonePrompt() {
  const { t } = useTranslation("workspace");
  const { message } = App.useApp();
  const [hidden, setHidden] = useState(false);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (window.localStorage.getItem(DISMISSED_KEY)) setHidden(true);
  }, []);
  if (hidden) return null;
  const dismiss = () => {
    window.localStorage.setItem(DISMISSED_KEY, new Date().toISOString());
    setHidden(true);
  };
  return (
    <Card className="workspace__phone" data-testid="phone-prompt">
      <div className="workspace__phone-row">
        <MobileOutlined className="workspace__phone-icon" />
        <div className="workspace__phone-text">
          <strong>{t("phone.title")}</strong>
          <p>{t("phone.body")}</p>
        </div>
        <div className="workspace__phone-actions">
          <Button type="primary" onClick={() => setOpen(true)} data-testid="phone-prompt-bind">
            {t("phone.bind")}
          </Button>
          <Button type="text" onClick={dismiss} data-testid="phone-prompt-later">
            {t("phone.later")}
          </Button>
        </div>
      </div>
      <Modal open={open} onCancel={() => setOpen(false)} footer={null} title={t("phone.modal_title")} destroyOnHidden>
        <PhoneBindForm
          replacing={false}
          onBound={() => {
            message.success(t("phone_binding.done", { ns: "auth" }));
            setOpen(false);
            setHidden(true);
          }}
        />
      </Modal>
    </Card>
  );
}
