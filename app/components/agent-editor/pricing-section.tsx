// Pricing in yuan (kept as micro-Z): a price is 0 (free) or at least 0.1 yuan.
import { Col, Form, InputNumber, Row } from "antd";
import { useTranslation } from "react-i18next";
import { ZAgentInput } from "../../../server/agents/agents.schema";
import { valueRule, yuanRule } from "./agent-rules";

const PRICES = ["sale_price", "use_price", "purchase_price"] as const;

export function PricingSection() {
  const { t } = useTranslation("agents");
  const shape = ZAgentInput.shape;
  return (
    <div className="agent-editor__section" data-testid="section-pricing">
      <Row gutter={16}>
        {PRICES.map((p) => (
          <Col xs={24} sm={12} md={6} key={p}>
            <Form.Item name={p} label={t(`pricing.${p}`)} tooltip={t(`pricing.${p}_hint`)} rules={[yuanRule(shape[`${p}_micro`], t)]}>
              <InputNumber min={0} step={0.1} precision={2} suffix={t("pricing.yuan")} style={{ width: "100%" }} data-testid={`agent-${p}`} />
            </Form.Item>
          </Col>
        ))}
        <Col xs={24} sm={12} md={6}>
          <Form.Item name="trial_count" label={t("pricing.trial_count")} tooltip={t("pricing.trial_count_hint")} rules={[valueRule(shape.trial_count, t)]}>
            <InputNumber min={0} precision={0} style={{ width: "100%" }} data-testid="agent-trial-count" />
          </Form.Item>
        </Col>
      </Row>
      <p className="agent-editor__hint">{t("pricing.note")}</p>
    </div>
  );
}
