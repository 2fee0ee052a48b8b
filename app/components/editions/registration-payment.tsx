// Paid registration's payment step (/registered): pays the order the form made, then signs in with
// the claim the order came with and goes on; if the name was taken meanwhile, it says so. Paying in
// the sandbox leaves the page for its cashier: the order and claim wait in this tab's session
// storage, and the page picks them up again when the cashier sends the payer back.
import { Alert, Button, Space } from "antd";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiRequest, errorText } from "../../lib/api-client";
import { AppLink } from "../app-link";
import { takeReturnedOrderId } from "../money/cashier-return";
import { OrderPayment, type TOrderState } from "./order-payment";

export type TRegistrationOrder = { order: TOrderState; claim: string; account: string };

const KEPT = "zelin:registration-order";

/** The registration order this tab left for the sandbox's cashier with, when the payer is back with it. */
export function resumeRegistrationOrder(): TRegistrationOrder | null {
  try {
    const kept = JSON.parse(window.sessionStorage.getItem(KEPT) ?? "null") as TRegistrationOrder | null;
    return kept && kept.order?.id === takeReturnedOrderId() ? kept : null;
  } catch {
    return null;
  }
}

export function RegistrationPayment({ made, onBack, onSignedIn }: { made: TRegistrationOrder; onBack: () => void; onSignedIn: () => void }) {
  const { t } = useTranslation(["editions", "auth"]);
  const [note, setNote] = useState<{ type: "success" | "error"; text: string } | null>(null);
  const [signIn, setSignIn] = useState(false);
  const query = `id=${encodeURIComponent(made.order.id)}&claim=${encodeURIComponent(made.claim)}`;
  const keep = useCallback(() => window.sessionStorage.setItem(KEPT, JSON.stringify(made)), [made]);
  const poll = useCallback(() => apiRequest<TOrderState>(`/api/v1/auth/register/order?${query}`), [query]);
  const settled = useCallback(
    async (o: TOrderState) => {
      if (o.state !== "paid") return;
      setNote({ type: "success", text: t("registration.paid") });
      try {
        await apiRequest("/api/v1/auth/register/complete", { body: { order_id: made.order.id, claim: made.claim } });
        window.sessionStorage.removeItem(KEPT);
        onSignedIn();
      } catch (err) {
        setNote({ type: "error", text: errorText(err) });
        setSignIn(true);
      }
    },
    [made, onSignedIn, t],
  );
  return (
    <Space direction="vertical" style={{ width: "100%" }} data-testid="registration-payment">
      <OrderPayment order={made.order} poll={poll} onSettled={(o) => void settled(o)} claim={made.claim} onLeave={keep} />
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
