// The withdrawal form (/withdrawal): name, ID number, phone and amount, the tax and the received
// amount worked out live as the amount is typed (the same labour-tax module the server charges),
// then a confirm dialog with the server's own preview before anything is submitted. One request id
// per confirm dialog: a double click withdraws once. Strings in the "withdrawals" namespace.
import { App, Alert, Button, Card, Descriptions, Form, Input, InputNumber, Modal, Statistic, type ButtonProps } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiRequest, fieldErrorsOf } from "../../../lib/api-client";
import { useMutation } from "../../../lib/use-mutation";
import { zodRule } from "../../../lib/zod-rule";
import { AppLink, useAppNavigate } from "../../app-link";
import { computeLabourTaxMicro } from "../../../../server/money/withdrawals/labour-tax";
import {
  ZSubmitWithdrawalInput,
  yuanTextToMicro,
  type TWithdrawalPreview,
  type TWithdrawalView,
} from "../../../../server/money/withdrawals/withdrawals.schema";
import { formatZ } from "../../../../server/money/statements/statements.schema";
import { formatZBalance, yuanToMicro } from "../../../../server/money/money-format";
import "./withdrawals.css";

type TValues = { real_name: string; id_number: string; phone: string; amount: number | null };
type TProps = { withdrawableMicro: number; minYuan: number; days: number; forbidden: boolean };

/** A v4-shaped id; plain-HTTP pages have no crypto.randomUUID. */
function newRequestId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const toMicro = (amount: number | null) => (amount === null || !Number.isFinite(amount) || amount <= 0 ? null : yuanTextToMicro(amount.toFixed(2)));

export function WithdrawalForm({ withdrawableMicro, minYuan, days, forbidden }: TProps) {
  const { t } = useTranslation("withdrawals");
  const { message } = App.useApp();
  const navigate = useAppNavigate();
  const [form] = Form.useForm<TValues>();
  const amount = Form.useWatch("amount", form) ?? null;
  const [confirming, setConfirming] = useState<{ preview: TWithdrawalPreview; values: TValues; requestId: string } | null>(null);
  const micro = toMicro(amount);
  const live = useMemo(() => (micro !== null && micro >= minYuan * 1_000_000 ? computeLabourTaxMicro(micro) : null), [micro, minYuan]);
  const shape = ZSubmitWithdrawalInput.shape;

  const preview = useMutation(async (values: TValues) => {
    const answer = await apiRequest<TWithdrawalPreview>(`/api/v1/withdrawal/preview?amount=${encodeURIComponent((values.amount ?? 0).toFixed(2))}`);
    setConfirming({ preview: answer, values, requestId: newRequestId() });
  });
  const send = useMutation(
    async ({ values, requestId }: { values: TValues; requestId: string }) => {
      await apiRequest<TWithdrawalView>("/api/v1/withdrawal", { body: { ...values, amount: (values.amount ?? 0).toFixed(2), request_id: requestId } });
      message.success(t("form.submitted"));
      navigate("/my_withdrawal");
    },
    {
      onError: (err) => {
        setConfirming(null);
        const fields = fieldErrorsOf(err);
        if (fields.length) form.setFields(fields.map((f) => ({ name: f.path as keyof TValues, errors: [f.message] })));
        return fields.length > 0;
      },
    },
  );
  const busy = preview.busy || send.busy;

  const review = async () => {
    const values = await form.validateFields().catch(() => null);
    if (values) await preview.run(values);
  };

  const submit = async () => {
    if (confirming) await send.run(confirming);
  };

  return (
    <div className="wd-layout">
      <Card className="wd-card" data-testid="withdrawal-form-card">
        {forbidden && <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={t("form.forbidden")} data-testid="withdrawal-forbidden" />}
        <div className="wd-balance">
          <Statistic title={t("form.withdrawable")} value={formatZBalance(withdrawableMicro)} suffix={t("yuan")} />
          <span className="console__hint">{t("form.coins_only")}</span>
        </div>
        <Form form={form} layout="vertical" disabled={forbidden} requiredMark={false} onFinish={review}>
          <Form.Item name="real_name" label={t("form.real_name")} rules={[zodRule(shape.real_name, t)]}>
            <Input maxLength={30} autoComplete="name" data-testid="withdrawal-real-name" />
          </Form.Item>
          <Form.Item name="id_number" label={t("form.id_number")} rules={[zodRule(shape.id_number, t)]} extra={t("form.id_number_hint")}>
            <Input maxLength={18} autoComplete="off" data-testid="withdrawal-id-number" />
          </Form.Item>
          <Form.Item name="phone" label={t("form.phone")} rules={[zodRule(shape.phone, t)]}>
            <Input maxLength={20} inputMode="tel" autoComplete="tel" data-testid="withdrawal-phone" />
          </Form.Item>
          <Form.Item
            name="amount"
            label={t("form.amount")}
            extra={t("form.amount_hint", { min: minYuan })}
            rules={[
              {
                validator: async (_r, v: number | null) => {
                  const m = toMicro(v);
                  if (m === null) throw new Error(t("validation.withdrawal_amount", { ns: "errors" }));
                  if (m < minYuan * 1_000_000) throw new Error(t("withdrawal_below_minimum", { ns: "errors", min: minYuan }));
                  if (m > withdrawableMicro) throw new Error(t("balance_insufficient", { ns: "errors" }));
                },
              },
            ]}
          >
            <InputNumber<number>
              min={0}
              precision={2}
              step={10}
              inputMode="decimal"
              style={{ width: "100%" }}
              suffix={t("yuan")}
              data-testid="withdrawal-amount"
            />
          </Form.Item>
          <div className="wd-preview" aria-live="polite" data-testid="withdrawal-live-preview">
            <div>
              <small>{t("preview.tax")}</small>
              <strong data-testid="withdrawal-live-tax">{live ? formatZ(live.taxMicro) : "–"}</strong>
            </div>
            <div className="wd-preview__main">
              <small>{t("preview.received")}</small>
              <strong data-testid="withdrawal-live-received">{live ? formatZ(live.receivedMicro) : "–"}</strong>
            </div>
          </div>
          <Button type="primary" htmlType="submit" block size="large" loading={busy && !confirming} data-testid="withdrawal-review">
            {t("form.review")}
          </Button>
        </Form>
      </Card>
      <Card className="wd-card wd-notes" title={t("notes.title")}>
        <ul className="wd-notes__list">
          <li>{t("notes.minimum", { min: minYuan })}</li>
          <li>{t("notes.arrival", { days })}</li>
          <li>{t("notes.tax")}</li>
          <li>{t("notes.abnormal")}</li>
        </ul>
        <AppLink to="/mobi/withdrawal_tip" target="_blank" data-testid="withdrawal-tax-link">
          {t("notes.tax_link")}
        </AppLink>
      </Card>
      <Modal
        open={Boolean(confirming)}
        title={t("confirm.title")}
        onCancel={() => setConfirming(null)}
        onOk={submit}
        confirmLoading={busy}
        okText={t("confirm.ok")}
        okButtonProps={{ "data-testid": "withdrawal-confirm-ok" } as ButtonProps}
        data-testid="withdrawal-confirm"
      >
        {confirming && (
          <div data-testid="withdrawal-confirm-body">
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label={t("confirm.amount")}>
                <span data-testid="withdrawal-confirm-amount">{formatZ(yuanToMicro(confirming.preview.amount))}</span> {t("yuan")}
              </Descriptions.Item>
              <Descriptions.Item label={t("confirm.tax")}>
                <span data-testid="withdrawal-confirm-tax">{formatZ(yuanToMicro(confirming.preview.tax))}</span> {t("yuan")}
              </Descriptions.Item>
              <Descriptions.Item label={t("confirm.received")}>
                <strong data-testid="withdrawal-confirm-received">{formatZ(yuanToMicro(confirming.preview.received))}</strong> {t("yuan")}
              </Descriptions.Item>
              <Descriptions.Item label={t("confirm.payee")}>
                {confirming.values.real_name} · {confirming.values.phone}
              </Descriptions.Item>
            </Descriptions>
            <Alert style={{ marginTop: 12 }} type="info" showIcon message={t("confirm.arrival", { days })} data-testid="withdrawal-confirm-arrival" />
          </div>
        )}
      </Modal>
    </div>
  );
}
