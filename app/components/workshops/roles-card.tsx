// The editor's roles: each one's name, whether an agent or the person plays it, the agent (for an
// agent role, and for the person's role when an agent stands in for them), and what the role does.
import { DeleteOutlined, RobotOutlined, UserAddOutlined, UserOutlined } from "@ant-design/icons";
import { Alert, Avatar, Button, Card, Col, Form, Input, Row, Select, Space, Switch, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { WORKSHOP_LIMITS, type TUsableAgent } from "../../../server/workshops/workshops.schema";
import { newRole, type TRoleValues } from "./definition-values";

/** An agent to pick: its name is the option's title, which the search looks in. */
type TAgentOption = { value: string; label: JSX.Element; title: string };

function toAgentOptions(agents: TUsableAgent[], t: (k: string) => string): TAgentOption[] {
  return agents.map((a) => ({
    value: a.id,
    title: a.name,
    label: (
      <Space size={6}>
        <Avatar size={20} src={a.avatarUrl || undefined} icon={<RobotOutlined />} />
        <span>{a.name}</span>
        {a.modelKind === "image" || a.modelKind === "video" ? <Tag color="purple">{t(`editor.roles.kind_${a.modelKind}`)}</Tag> : null}
      </Space>
    ),
  }));
}

type TRoleCardProps = { index: number; options: TAgentOption[]; kindOf: (agentId: string) => string | undefined; onRemove: () => void };

function RoleCard({ index, options, kindOf, onRemove }: TRoleCardProps) {
  const { t } = useTranslation("workshops");
  const form = Form.useFormInstance();
  const role = (Form.useWatch(["roles", index], form) ?? {}) as Partial<TRoleValues>;
  const isUser = role.type === "user";
  const needsAgent = !isUser || role.hosting;
  // Picture and video agents have a rule of their own: said beside the agent when one is chosen.
  const media = ["image", "video"].includes(kindOf(role.agent_id ?? "") ?? "");
  return (
    <div className="ws-item" data-testid="workshop-role" data-index={index}>
      <div className="ws-item__head">
        <Space size={8}>
          <Avatar size={28} className={isUser ? "ws-avatar--user" : "ws-avatar--agent"} icon={isUser ? <UserOutlined /> : <RobotOutlined />} />
          <b>{role.name || t("editor.roles.unnamed", { n: index + 1 })}</b>
          <Tag>{t(isUser ? (role.hosting ? "editor.roles.tag_hosted" : "editor.roles.tag_person") : "editor.roles.tag_agent")}</Tag>
        </Space>
        <Button type="text" danger icon={<DeleteOutlined />} onClick={onRemove} aria-label={t("editor.roles.remove")} data-testid="workshop-role-remove" />
      </div>
      <Row gutter={12}>
        <Col xs={24} md={8}>
          <Form.Item name={[index, "name"]} label={t("editor.roles.name")} extra={t("editor.roles.name_hint")} required>
            <Input maxLength={32} placeholder="Alice" data-testid="workshop-role-name" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name={[index, "type"]} label={t("editor.roles.type")} required>
            <Select
              options={[
                { value: "agent", label: t("editor.roles.type_agent") },
                { value: "user", label: t("editor.roles.type_user") },
              ]}
              data-testid="workshop-role-type"
            />
          </Form.Item>
        </Col>
        {isUser && (
          <Col xs={24} md={8}>
            <Form.Item name={[index, "hosting"]} label={t("editor.roles.hosting")} valuePropName="checked" extra={t("editor.roles.hosting_hint")}>
              <Switch data-testid="workshop-role-hosting" />
            </Form.Item>
          </Col>
        )}
        {needsAgent && (
          <Col xs={24} md={isUser ? 16 : 8}>
            <Form.Item name={[index, "agent_id"]} label={t("editor.roles.agent")} required extra={media ? t("editor.roles.agent_hint") : undefined}>
              <Select
                options={options}
                placeholder={t("editor.roles.agent_placeholder")}
                showSearch={{ optionFilterProp: "title" }}
                notFoundContent={t("editor.roles.no_agents")}
                data-testid="workshop-role-agent"
              />
            </Form.Item>
          </Col>
        )}
        <Col xs={24}>
          <Form.Item name={[index, "description"]} label={t("editor.roles.description")}>
            <Input.TextArea
              autoSize={{ minRows: 2, maxRows: 6 }}
              maxLength={WORKSHOP_LIMITS.roleDescription}
              showCount
              placeholder={t("editor.roles.description_hint")}
              data-testid="workshop-role-description"
            />
          </Form.Item>
        </Col>
      </Row>
    </div>
  );
}

export function RolesCard({ agents, issues, onRemove }: { agents: TUsableAgent[]; issues?: string[]; onRemove: (index: number) => void }) {
  const { t } = useTranslation("workshops");
  const options = toAgentOptions(agents, t);
  const kindOf = (id: string) => agents.find((a) => a.id === id)?.modelKind;
  const roles = (Form.useWatch("roles") ?? []) as TRoleValues[];
  const hasUser = roles.some((r) => r?.type === "user");
  return (
    <Card title={t("editor.roles.title")} className="ws-section" data-testid="workshop-roles">
      <p className="ws-section__lead">{t("editor.roles.lead")}</p>
      {!agents.length && <Alert type="warning" showIcon className="ws-editor__notice" message={t("editor.roles.no_agents")} />}
      {issues?.map((m) => (
        <Alert key={m} type="error" showIcon className="ws-editor__notice" message={m} data-testid="workshop-roles-issue" />
      ))}
      <Form.List name="roles">
        {(fields, { add, remove }) => (
          <>
            {fields.map((field) => (
              <RoleCard
                key={field.key}
                index={field.name}
                options={options}
                kindOf={kindOf}
                onRemove={() => {
                  onRemove(field.name);
                  remove(field.name);
                }}
              />
            ))}
            <Space wrap>
              <Button
                icon={<RobotOutlined />}
                onClick={() => add(newRole("agent"))}
                disabled={fields.length >= WORKSHOP_LIMITS.roles}
                data-testid="workshop-add-agent-role"
              >
                {t("editor.roles.add_agent")}
              </Button>
              <Button
                icon={<UserAddOutlined />}
                onClick={() => add(newRole("user"))}
                disabled={hasUser || fields.length >= WORKSHOP_LIMITS.roles}
                title={hasUser ? t("editor.roles.one_user") : undefined}
                data-testid="workshop-add-user-role"
              >
                {t("editor.roles.add_user")}
              </Button>
              <span className="ws-section__count">{t("editor.roles.count", { count: fields.length, max: WORKSHOP_LIMITS.roles })}</span>
            </Space>
          </>
        )}
      </Form.List>
    </Card>
  );
}
