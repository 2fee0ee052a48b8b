// Paid registration's payment step (/registered): pays the order the form made, then signs in with
// the claim the order came with and goes on; if the name was taken meanwhile, it says so.
import { Alert, Button, Space } from "antd";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiRequest, ApiError } from "../../lib/api-client";
import { AppLink } from "../app-link";
import { OrderPayment, type TOrderState } from "./order-payment";

export type TRegistrationOrder = { order: TOrderState; claim: string; account: string };

export function RegistrationPayment({ made, onBack, onSignedIn }: { made: TRegistrationOrder; onBack: () => void; onSignedIn: () => void }) {
  const { t } = useTranslation(["editions", "auth"]);
  const [note, setNote] = useState<{ type: "success" | "error"; text: string } | null>(null);
  const [signIn, setSignIn] = useState(false);
  const query = `id=${encodeURIComponent(made.order.id)}&claim=${encodeURIComponent(made.claim)}`;
  const poll = useCallback(() => apiRequest<TOrderState>(`/api/v1/auth/register/order?${query}`), [query]);
  const settled = useCallback(
    async (o: TOrderState) => {
      if (o.state !== "paid") return;
      setNote({ type: "success", text: t("registration.paid") });
      try {
        await apiRequest("/api/v1/auth/register/complete", { body: { order_id: made.order.id, claim: made.claim } });
        onSignedIn();
      } catch (err) {
        setNote({ type: "error", text: err instanceof ApiError ? err.description : String(err) });
        setSignIn(true);
      }
    },
    [made, onSignedIn, t],
  );
  return (
    <Space direction="vertical" style={{ width: "100%" }} data-testid="registration-payment">
      <OrderPayment order={made.order} poll={poll} onSettled={(o) => void settled(o)} />
      {note && <Alert type={note.type} showIcon title={note.text} data-testid="registration-note" />}
      {signIn ? (
        <AppLink to="/login">{t("registration.sign_in")}</AppLink>
      ) : (
        <Button type="link" onClick={onBack} data-testid="registration-back">
          {t("registration.back")}
        </Button>
      )}
    </Space>
  );
}
