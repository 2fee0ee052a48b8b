// The run limits: however its nodes go, a run stops after this many turns or minutes.
import { Alert, Card, Col, Form, InputNumber, Row } from "antd";
import { useTranslation } from "react-i18next";
import { WORKSHOP_LIMITS } from "../../../server/workshops/workshops.schema";

export function LimitsCard({ issues }: { issues?: string[] }) {
  const { t } = useTranslation("workshops");
  return (
    <Card title={t("editor.limits.title")} className="ws-section" data-testid="workshop-limits">
      <p className="ws-section__lead">{t("editor.limits.lead")}</p>
      {issues?.map((m) => (
        <Alert key={m} type="error" showIcon className="ws-editor__notice" message={m} />
      ))}
      <Row gutter={12}>
        <Col xs={12} md={8}>
          <Form.Item
            name={["limits", "max_turns"]}
            label={t("editor.limits.max_turns")}
            extra={t("editor.limits.max_turns_hint", { max: WORKSHOP_LIMITS.turnsMax })}
          >
            <InputNumber min={1} precision={0} className="ws-number" data-testid="workshop-max-turns" />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item
            name={["limits", "max_minutes"]}
            label={t("editor.limits.max_minutes")}
            extra={t("editor.limits.max_minutes_hint", { max: WORKSHOP_LIMITS.minutesMax })}
          >
            <InputNumber min={1} precision={0} className="ws-number" data-testid="workshop-max-minutes" />
          </Form.Item>
        </Col>
      </Row>
    </Card>
  );
}
