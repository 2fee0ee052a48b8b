// The editor's nodes, in the order a run goes through them: add, remove and move them.
import { PlusOutlined } from "@ant-design/icons";
import { Alert, Button, Card, Form, Space } from "antd";
import { useTranslation } from "react-i18next";
import { WORKSHOP_LIMITS } from "../../../server/workshops/workshops.schema";
import { newNode } from "./definition-values";
import { NodeCard } from "./node-card";

export function NodesCard({ issues }: { issues?: string[] }) {
  const { t } = useTranslation("workshops");
  return (
    <Card title={t("editor.nodes.title")} className="ws-section" data-testid="workshop-nodes">
      <p className="ws-section__lead">{t("editor.nodes.lead")}</p>
      {issues?.map((m) => (
        <Alert key={m} type="error" showIcon className="ws-editor__notice" message={m} data-testid="workshop-nodes-issue" />
      ))}
      <Form.List name="nodes">
        {(fields, { add, remove, move }) => (
          <>
            {fields.map((field) => (
              <NodeCard key={field.key} index={field.name} count={fields.length} onMove={(to) => move(field.name, to)} onRemove={() => remove(field.name)} />
            ))}
            <Space wrap>
              <Button
                icon={<PlusOutlined />}
                onClick={() => add(newNode(t("editor.node_default", { n: fields.length + 1 })))}
                disabled={fields.length >= WORKSHOP_LIMITS.nodes}
                data-testid="workshop-add-node"
              >
                {t("editor.nodes.add")}
              </Button>
              <span className="ws-section__count">{t("editor.nodes.count", { count: fields.length, max: WORKSHOP_LIMITS.nodes })}</span>
            </Space>
          </>
        )}
      </Form.List>
    </Card>
  );
}
