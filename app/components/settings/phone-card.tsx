import { MobileOutlined } from "@ant-design/icons";
import { App, Button, Card, Space, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { maskPhone, PhoneBindForm } from "./phone-bind-form";

/** The bound phone, and the form that binds or replaces it. */
export function PhoneCard({ phone: initial }: { phone: string | null }) {
  const { t } = useTranslation("auth");
  const { message } = App.useApp();
  const [phone, setPhone] = useState(initial);
  const [editing, setEditing] = useState(!initial);
  return (
    <Card title={t("phone_binding.title")} data-testid="phone-card" id="phone">
      <Space align="center" size={12} wrap style={{ marginBottom: editing ? 16 : 0 }}>
        <MobileOutlined style={{ fontSize: 24, color: phone ? "#4f46e5" : "#94a3b8" }} />
        <Typography.Text data-testid="phone-state">
          {phone ? t("phone_binding.bound", { phone: maskPhone(phone) }) : t("phone_binding.unbound")}
        </Typography.Text>
        {phone && !editing && (
          <Button onClick={() => setEditing(true)} data-testid="phone-change">
            {t("phone_binding.change")}
          </Button>
        )}
      </Space>
      {!phone && <p className="console__hint">{t("phone_binding.why")}</p>}
      {editing && (
        <PhoneBindForm
          replacing={Boolean(phone)}
          onCancel={phone ? () => setEditing(false) : undefined}
          onBound={(account) => {
            message.success(t("phone_binding.done"));
            setPhone(account.phone);
            setEditing(false);
          }}
        />
      )}
    </Card>
  );
}
