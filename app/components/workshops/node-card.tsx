// One node of the editor: its name, how its roles take turns, who speaks in it (in order), its
// host, its limits, what each speaker reads and who is told of each message, and its contents.
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined } from "@ant-design/icons";
import { Button, Col, Form, Input, InputNumber, Radio, Row, Select, Space, Switch, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { NOTIFY_SCOPES, RECEIVE_RANGES, SPEECH_MODES, WORKSHOP_LIMITS } from "../../../server/workshops/workshops.schema";
import type { TNodeValues, TRoleValues } from "./definition-values";
import { NodeContents } from "./node-contents";

type TProps = { index: number; count: number; onMove: (to: number) => void; onRemove: () => void };

export function NodeCard({ index, count, onMove, onRemove }: TProps) {
  const { t } = useTranslation("workshops");
  const form = Form.useFormInstance();
  const node = (Form.useWatch(["nodes", index], form) ?? {}) as Partial<TNodeValues>;
  const roles = ((Form.useWatch("roles", form) ?? []) as TRoleValues[]).filter((r) => r?.name?.trim());
  const speakers = node.roles ?? [];
  const sequential = node.speech_mode === "sequential";
  const onDemand = node.speech_mode === "on_demand";
  const roleOptions = roles.map((r) => ({ value: r.name.trim(), label: r.name.trim() }));
  const hostOptions = [
    { value: "", label: t("editor.nodes.no_host") },
    ...roles.filter((r) => r.type === "agent").map((r) => ({ value: r.name.trim(), label: r.name.trim() })),
  ];
  return (
    <div className="ws-item ws-node" data-testid="workshop-node" data-index={index}>
      <div className="ws-item__head">
        <Space size={8}>
          <span className="ws-node__number">{index + 1}</span>
          <b>{node.name || t("editor.nodes.unnamed")}</b>
        </Space>
        <Space size={0}>
          <Button type="text" icon={<ArrowUpOutlined />} disabled={index === 0} onClick={() => onMove(index - 1)} aria-label={t("editor.nodes.move_up")} />
          <Button
            type="text"
            icon={<ArrowDownOutlined />}
            disabled={index === count - 1}
            onClick={() => onMove(index + 1)}
            aria-label={t("editor.nodes.move_down")}
          />
          <Button type="text" danger icon={<DeleteOutlined />} onClick={onRemove} aria-label={t("editor.nodes.remove")} data-testid="workshop-node-remove" />
        </Space>
      </div>
      <Form.Item name={[index, "name"]} label={t("editor.nodes.name")} required>
        <Input maxLength={40} placeholder={t("editor.nodes.name_placeholder")} data-testid="workshop-node-name" />
      </Form.Item>
      <Form.Item name={[index, "speech_mode"]} label={t("editor.nodes.speech_mode")} required>
        <Radio.Group className="ws-choices" data-testid="workshop-node-mode">
          {SPEECH_MODES.map((m) => (
            <Radio key={m} value={m} data-testid={`workshop-node-mode-${m}`}>
              <b>{t(`editor.nodes.mode.${m}`)}</b>
              <span className="ws-choices__hint">{t(`editor.nodes.mode_hint.${m}`)}</span>
            </Radio>
          ))}
        </Radio.Group>
      </Form.Item>
      <Form.Item name={[index, "roles"]} label={t("editor.nodes.roles")} required extra={t("editor.nodes.roles_hint")}>
        <Select
          mode="multiple"
          options={roleOptions}
          placeholder={t("editor.nodes.roles_placeholder")}
          notFoundContent={t("editor.nodes.roles_none")}
          tagRender={({ value, closable, onClose }) => (
            <Tag closable={closable} onClose={onClose} className="ws-speaker-tag">
              <span className="ws-speaker-tag__n">{speakers.indexOf(String(value)) + 1}</span> {String(value)}
            </Tag>
          )}
          data-testid="workshop-node-roles"
        />
      </Form.Item>
      <Row gutter={12}>
        <Col xs={24} md={12}>
          <Form.Item
            name={[index, "host"]}
            label={t("editor.nodes.host")}
            required={onDemand}
            extra={t(onDemand ? "editor.nodes.host_hint_required" : "editor.nodes.host_hint")}
          >
            <Select options={hostOptions} data-testid="workshop-node-host" />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item
            name={[index, "max_rounds"]}
            label={t("editor.nodes.max_rounds")}
            required
            extra={t("editor.nodes.max_rounds_hint", { max: sequential ? WORKSHOP_LIMITS.roundsSequential : WORKSHOP_LIMITS.roundsOther })}
          >
            <InputNumber min={1} precision={0} className="ws-number" data-testid="workshop-node-rounds" />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item
            name={[index, "max_cycles"]}
            label={t("editor.nodes.max_cycles")}
            required
            extra={t("editor.nodes.max_cycles_hint", { max: WORKSHOP_LIMITS.cycles })}
          >
            <InputNumber min={1} precision={0} className="ws-number" data-testid="workshop-node-cycles" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name={[index, "receive_range"]}
            label={t("editor.nodes.receive_range")}
            extra={t(`editor.nodes.receive_hint.${node.receive_range ?? "all"}`)}
          >
            <Select options={RECEIVE_RANGES.map((r) => ({ value: r, label: t(`editor.nodes.receive.${r}`) }))} data-testid="workshop-node-receive" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name={[index, "notification_scope"]}
            label={t("editor.nodes.notify")}
            extra={t(`editor.nodes.notify_hint.${node.notification_scope ?? "all"}`)}
          >
            <Select options={NOTIFY_SCOPES.map((s) => ({ value: s, label: t(`editor.nodes.notify_scope.${s}`) }))} data-testid="workshop-node-notify" />
          </Form.Item>
        </Col>
        <Col xs={24}>
          <Form.Item name={[index, "allow_repeat"]} label={t("editor.nodes.allow_repeat")} valuePropName="checked" extra={t("editor.nodes.allow_repeat_hint")}>
            <Switch data-testid="workshop-node-repeat" />
          </Form.Item>
        </Col>
      </Row>
      <NodeContents index={index} />
    </div>
  );
}
