// The platform's hourly price of digital-human instances: what new instances start at (running
// ones keep theirs). Entered in yuan; the server keeps micro-Z.
import { App, Button, Card, Form, InputNumber } from "antd";
import { useTranslation } from "react-i18next";
import { callTrpc, trpc } from "../../../lib/trpc";
import { useMutation } from "../../../lib/use-mutation";
import { zodRule } from "../../../lib/zod-rule";
import { formatZ, yuanToMicro } from "../../../../server/money/money-format";
import { ZHourPriceYuan, type THourPrice } from "../../../../server/digital/instances.schema";

export function HourPriceCard({ price, onChanged }: { price: THourPrice; onChanged: () => void }) {
  const { t } = useTranslation("instances");
  const { message } = App.useApp();
  const [form] = Form.useForm<{ yuan: number }>();
  const { run: save, busy } = useMutation(async (yuan: number) => {
    const next = await callTrpc(() => trpc.digitalInstances.setHourPrice.mutate({ priceMicro: yuanToMicro(yuan) }));
    message.success(t("admin.price.saved", { amount: formatZ(next.priceMicro) }));
    onChanged();
  });

  return (
    <Card title={t("admin.price.title")} style={{ marginBottom: 16 }} data-testid="instance-price">
      <p className="console__hint">{t("admin.price.hint")}</p>
      <p data-testid="instance-price-current">{t("admin.price.current", { amount: formatZ(price.priceMicro), default: formatZ(price.defaultMicro) })}</p>
      <Form form={form} layout="inline" className="di-price-form" initialValues={{ yuan: price.priceMicro / 1_000_000 }} onFinish={(v) => void save(v.yuan)}>
        <Form.Item name="yuan" label={t("admin.price.label")} rules={[zodRule(ZHourPriceYuan, t)]}>
          <InputNumber min={0} max={price.maxMicro / 1_000_000} step={0.5} precision={2} style={{ width: 140 }} data-testid="instance-price-input" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} data-testid="instance-price-save">
          {t("admin.price.save")}
        </Button>
      </Form>
    </Card>
  );
}
