// /admin/withdrawals: platform administrators pay out submitted withdrawals and mark them arrived, or
// mark them abnormal with a note (the coins go back to the withdrawer). Other states are history.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRevalidator, useSearchParams } from "@remix-run/react";
import { App, Button, Card, Descriptions, Empty, Form, Input, Modal, Segmented, Space, type ButtonProps } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { WithdrawalCard } from "../../components/money/withdrawals/withdrawal-card";
import { apiRequest } from "../../lib/api-client";
import { requirePageRole } from "../../lib/auth.server";
import { useMutation } from "../../lib/use-mutation";
import { zodRule } from "../../lib/zod-rule";
import { listWithdrawalsForReview } from "../../../server/money/withdrawals/withdrawals.service";
import { WITHDRAWAL_STATES, ZWithdrawalNote, type TWithdrawalForReview, type TWithdrawalState } from "../../../server/money/withdrawals/withdrawals.schema";
import { formatZ, yuanToMicro } from "../../../server/money/money-format";
import "../../components/money/withdrawals/withdrawals.css";

export const handle = { i18n: ["withdrawals"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requirePageRole(request, "platform_admin");
  const raw = new URL(request.url).searchParams.get("state") ?? "submitted";
  const state = (WITHDRAWAL_STATES as readonly string[]).includes(raw) ? (raw as TWithdrawalState) : "submitted";
  return { state, page: await listWithdrawalsForReview(account, { state }) };
}

export default function WithdrawalQueue() {
  const { t } = useTranslation("withdrawals");
  const { message, modal } = App.useApp();
  const { state, page } = useLoaderData<typeof loader>();
  const [, setSearch] = useSearchParams();
  const revalidator = useRevalidator();
  const [abnormal, setAbnormal] = useState<TWithdrawalForReview | null>(null);
  const { run: markArrived } = useMutation(async (id: string) => {
    await apiRequest(`/api/v1/admin/withdrawals/${encodeURIComponent(id)}/arrive`, { body: {} });
    message.success(t("admin.arrived"));
    revalidator.revalidate();
  });

  const arrive = (item: TWithdrawalForReview) =>
    modal.confirm({
      title: t("admin.arrive_confirm", { name: item.real_name, amount: formatZ(yuanToMicro(item.received)) }),
      okButtonProps: { "data-testid": "withdrawal-arrive-ok" } as ButtonProps,
      onOk: () => markArrived(item.id),
    });

  return (
    <div className="console__page" data-testid="withdrawal-queue">
      <h1 className="console__title">{t("admin.title")}</h1>
      <div className="wd-toolbar">
        <Segmented<TWithdrawalState>
          value={state}
          onChange={(s) => setSearch({ state: s })}
          options={WITHDRAWAL_STATES.map((s) => ({ value: s, label: t(`states.${s}`) }))}
          data-testid="withdrawal-queue-state"
        />
      </div>
      <div className="wd-list">
        {page.items.length === 0 ? (
          <Card>
            <Empty description={t("admin.empty")} data-testid="withdrawal-queue-empty" />
          </Card>
        ) : (
          page.items.map((item) => (
            <WithdrawalCard
              key={item.id}
              item={item}
              idNumber={<span data-testid="withdrawal-id-number-full">{item.id_number ?? t("admin.id_number_sealed", { hint: item.id_number_hint })}</span>}
              extra={
                item.state === "submitted" && (
                  <Space>
                    <Button danger onClick={() => setAbnormal(item)} data-testid="withdrawal-abnormal">
                      {t("admin.abnormal")}
                    </Button>
                    <Button type="primary" onClick={() => arrive(item)} data-testid="withdrawal-arrive">
                      {t("admin.arrive")}
                    </Button>
                  </Space>
                )
              }
            >
              <Descriptions size="small">
                <Descriptions.Item label={t("admin.account")}>
                  {item.nickname} ({item.account})
                </Descriptions.Item>
              </Descriptions>
            </WithdrawalCard>
          ))
        )}
      </div>
      <AbnormalModal
        item={abnormal}
        onClose={() => setAbnormal(null)}
        onDone={() => {
          setAbnormal(null);
          revalidator.revalidate();
        }}
      />
    </div>
  );
}

function AbnormalModal({ item, onClose, onDone }: { item: TWithdrawalForReview | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation("withdrawals");
  const { message } = App.useApp();
  const [form] = Form.useForm<{ note: string }>();
  const { run: markAbnormal, busy } = useMutation(async (id: string, note: string) => {
    await apiRequest(`/api/v1/admin/withdrawals/${encodeURIComponent(id)}/abnormal`, { body: { note } });
    message.success(t("admin.marked_abnormal"));
    form.resetFields();
    onDone();
  });
  const submit = async () => {
    if (!item) return;
    const values = await form.validateFields().catch(() => null);
    if (values) await markAbnormal(item.id, values.note);
  };
  return (
    <Modal
      open={Boolean(item)}
      title={t("admin.abnormal_title")}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={busy}
      okButtonProps={{ danger: true, "data-testid": "withdrawal-abnormal-ok" } as ButtonProps}
    >
      <p className="console__hint">{t("admin.abnormal_lead")}</p>
      <Form form={form} layout="vertical">
        <Form.Item name="note" label={t("admin.note")} rules={[zodRule(ZWithdrawalNote, t)]}>
          <Input.TextArea rows={3} maxLength={200} showCount data-testid="withdrawal-abnormal-note" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
