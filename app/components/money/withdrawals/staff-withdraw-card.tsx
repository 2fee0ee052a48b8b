// The enterprise switch "staff may withdraw", for the enterprise's super administrator on
// /setting: there is no enterprise settings page yet. Strings in the "withdrawals" namespace.
import { App, Card, Switch } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { apiRequest } from "../../../lib/api-client";
import { useMutation } from "../../../lib/use-mutation";

export function StaffWithdrawCard({ enterprise, initial }: { enterprise: string; initial: boolean }) {
  const { t } = useTranslation("withdrawals");
  const { message } = App.useApp();
  const [allowed, setAllowed] = useState(initial);
  const { run: change, busy } = useMutation(async (next: boolean) => {
    const res = await apiRequest<{ staff_may_withdraw: boolean }>("/api/v1/enterprise/staff_may_withdraw", { method: "PUT", body: { allowed: next } });
    setAllowed(res.staff_may_withdraw);
    message.success(t("enterprise.saved"));
  });
  return (
    <Card title={t("enterprise.title", { name: enterprise })} data-testid="staff-withdraw-card">
      <div style={{ display: "flex", justifyContent: "space-between", alignItems: "center", gap: 12 }}>
        <div>
          <div>{t("enterprise.label")}</div>
          <small className="console__hint">{t("enterprise.hint")}</small>
        </div>
        <Switch checked={allowed} loading={busy} onChange={change} aria-label={t("enterprise.label")} data-testid="staff-withdraw-switch" />
      </div>
    </Card>
  );
}
