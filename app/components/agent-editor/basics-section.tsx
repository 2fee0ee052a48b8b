// Basics: who the agent is (name with the reading-width rule, avatar, texts, version, originality).
import { Col, Form, Input, Row, Switch } from "antd";
import { useTranslation } from "react-i18next";
import { ZAgentInput } from "../../../server/agents/agents.schema";
import { zodRule } from "../../lib/zod-rule";
import { AvatarField } from "./avatar-field";

export function BasicsSection() {
  const { t } = useTranslation("agents");
  const shape = ZAgentInput.shape;
  return (
    <div className="agent-editor__section" data-testid="section-basics">
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="name" label={t("fields.name")} extra={t("fields.name_hint")} rules={[zodRule(shape.name, t)]}>
            <Input maxLength={16} data-testid="agent-name" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="avatar_url" label={t("fields.avatar")}>
            <AvatarField />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="introduction" label={t("fields.introduction")} rules={[zodRule(shape.introduction, t)]}>
        <Input.TextArea rows={2} maxLength={300} showCount data-testid="agent-introduction" />
      </Form.Item>
      <Form.Item name="details" label={t("fields.details")} rules={[zodRule(shape.details, t)]}>
        <Input.TextArea rows={4} maxLength={5000} data-testid="agent-details" />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={8}>
          <Form.Item name="version" label={t("fields.version")} extra={t("fields.version_hint")} rules={[zodRule(shape.version, t)]}>
            <Input maxLength={20} data-testid="agent-version" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="update_note" label={t("fields.update_note")} rules={[zodRule(shape.update_note, t)]}>
            <Input.TextArea rows={2} maxLength={500} data-testid="agent-update-note" />
          </Form.Item>
        </Col>
        <Col xs={24} md={4}>
          <Form.Item name="original" label={t("fields.original")} valuePropName="checked">
            <Switch data-testid="agent-original" />
          </Form.Item>
        </Col>
      </Row>
    </div>
  );
}
