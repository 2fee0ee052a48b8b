// The recharge dialog, usable from any console page: an amount (presets or custom, checked by the
// shared schema), a provider among those configured, then the payment itself (recharge-pay-step)
// and the new balance. `onPaid` lets the opener refresh what it shows; `resumeOrder` opens it on
// an order the payer came back with from the sandbox's cashier page.
import { Alert, Button, Form, Input, Modal, Radio, Space, Spin, Typography } from "antd";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../lib/api-client";
import { useMutation } from "../../lib/use-mutation";
import { zodRule } from "../../lib/zod-rule";
import { ZTopupAmount, type TPaymentOptions, type TPaymentOrderView, type TPaymentProviderId } from "../../../server/money/payments/payments.schema";
import { createTopup, getPaymentOptions, getWalletView, WALLET_CHANGED_EVENT } from "./recharge-api";
import { RechargePayStep, RechargeResult } from "./recharge-pay-step";

type TStep = { kind: "amount" } | { kind: "pay"; order: TPaymentOrderView } | { kind: "done"; order: TPaymentOrderView; balance: number | null };
type TForm = { amount: string; provider: TPaymentProviderId };

type TProps = { open: boolean; onClose: () => void; onPaid?: (balance: number) => void; initialAmount?: number; resumeOrder?: TPaymentOrderView | null };

export function RechargeDialog({ open, onClose, onPaid, initialAmount, resumeOrder }: TProps) {
  const { t } = useTranslation("payments");
  const [form] = Form.useForm<TForm>();
  const [options, setOptions] = useState<TPaymentOptions | null>(null);
  const [step, setStep] = useState<TStep>({ kind: "amount" });
  const pay = useMutation(async (values: TForm) => setStep({ kind: "pay", order: await createTopup(values.amount.trim(), values.provider) }), {
    report: "inline",
  });
  const { busy, error, setError } = pay;
  const amount = Form.useWatch("amount", form);

  useEffect(() => {
    if (!open) return;
    setStep(resumeOrder ? { kind: "pay", order: resumeOrder } : { kind: "amount" });
    setError(null);
    getPaymentOptions().then(setOptions, (err) => setError(errorText(err)));
  }, [open, resumeOrder, setError]);
  useEffect(() => {
    if (options && open)
      form.setFieldsValue({
        amount: initialAmount ? String(initialAmount) : (form.getFieldValue("amount") ?? String(options.presets[1] ?? options.presets[0])),
        provider: form.getFieldValue("provider") ?? options.providers[0],
      });
  }, [options, open, form, initialAmount]);

  const submit = pay.run;

  const settled = useCallback(
    async (order: TPaymentOrderView) => {
      const wallet = order.state === "paid" ? await getWalletView().catch(() => null) : null;
      setStep({ kind: "done", order, balance: wallet?.available ?? null });
      if (wallet) {
        onPaid?.(wallet.available);
        window.dispatchEvent(new CustomEvent(WALLET_CHANGED_EVENT));
      }
    },
    [onPaid],
  );

  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t("recharge.title")} destroyOnHidden width={460} data-testid="recharge-dialog">
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="recharge-error" />}
      {step.kind === "amount" && !options && !error && <Spin />}
      {step.kind === "amount" && options && options.providers.length === 0 && <Alert type="info" message={t("recharge.no_providers")} />}
      {step.kind === "amount" && options && options.providers.length > 0 && (
        <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
          <Form.Item label={t("recharge.amount")} required>
            <Space wrap style={{ marginBottom: 8 }}>
              {options.presets.map((p) => (
                <Button
                  key={p}
                  type={amount === String(p) ? "primary" : "default"}
                  onClick={() => form.setFieldsValue({ amount: String(p) })}
                  data-testid={`recharge-preset-${p}`}
                >
                  {t("recharge.preset", { amount: p })}
                </Button>
              ))}
            </Space>
            <Form.Item name="amount" noStyle rules={[zodRule(ZTopupAmount, t)]}>
              <Input
                inputMode="decimal"
                placeholder={t("recharge.custom_placeholder", { max: options.max })}
                addonAfter={t("recharge.unit")}
                data-testid="recharge-amount"
              />
            </Form.Item>
          </Form.Item>
          <Form.Item name="provider" label={t("recharge.provider")}>
            <Radio.Group data-testid="recharge-provider">
              <Space direction="vertical">
                {options.providers.map((p) => (
                  <Radio key={p} value={p} data-testid={`recharge-provider-${p}`}>
                    {t(`providers.${p}`)}
                  </Radio>
                ))}
              </Space>
            </Radio.Group>
          </Form.Item>
          {options.providers.includes("sandbox") && (
            <Typography.Paragraph type="warning" data-testid="recharge-sandbox-notice">
              {t("recharge.sandbox_notice")}
            </Typography.Paragraph>
          )}
          <Button type="primary" htmlType="submit" block loading={busy} data-testid="recharge-submit">
            {t("recharge.pay")}
          </Button>
        </Form>
      )}
      {step.kind === "pay" && <RechargePayStep initial={step.order} onSettled={settled} onBack={() => setStep({ kind: "amount" })} />}
      {step.kind === "done" && <RechargeResult order={step.order} balance={step.balance} onAgain={() => setStep({ kind: "amount" })} onClose={onClose} />}
    </Modal>
  );
}
