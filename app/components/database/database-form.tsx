// The database training set form (/Createdatabases): name, introduction, the connection, and the
// table-creation statements with their character count out of 30,000. "Verify" checks all of it
// without saving; saving verifies again and keeps nothing when that fails. Beside the statements,
// the grants the customer's database user should have, written out for the form's values.
import { CheckCircleOutlined } from "@ant-design/icons";
import { Alert, App, Button, Card, Col, Form, Input, InputNumber, Row, Space } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText, fieldErrorsOf } from "../../lib/api-client";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import { zodRule } from "../../lib/zod-rule";
import {
  countChars,
  DDL_MAX_CHARS,
  ZDatabaseConnection,
  ZDdl,
  ZSetIntroduction,
  ZSetName,
  type TDatabaseSetView,
  type TVerifyResult,
} from "../../../server/knowledge/database/database-sets.schema";
import { TRAINING_SET_INTRO_MAX, TRAINING_SET_NAME_MAX } from "../../../server/knowledge/training-sets.schema";
import { describeFailure } from "./database-format";
import { GrantHelp } from "./grant-help";

type TValues = { name: string; introduction: string; host: string; port: number; username: string; password: string; database: string; ddl: string };
type TNotice = { type: "success" | "error"; text: string } | null;

export function DatabaseForm({ set, onSaved }: { set: TDatabaseSetView | null; onSaved: (saved: TDatabaseSetView) => void }) {
  const { t, i18n } = useTranslation("database");
  const { message } = App.useApp();
  const [form] = Form.useForm<TValues>();
  const [notice, setNotice] = useState<TNotice>(null);
  const ddl = Form.useWatch("ddl", form) ?? set?.ddl ?? "";
  const username = Form.useWatch("username", form) ?? set?.username ?? "";
  const database = Form.useWatch("database", form) ?? set?.database ?? "";
  const chars = countChars(ddl.trim());
  const shape = ZDatabaseConnection.shape;
  const num = (n: number) => new Intl.NumberFormat(i18n.language.replace("_", "-")).format(n);

  const showRefusal = (err: unknown) => {
    const fields = fieldErrorsOf(err);
    if (fields.length) form.setFields(fields.map((f) => ({ name: f.path as keyof TValues, errors: [f.message] })));
    setNotice({ type: "error", text: errorText(err) });
  };
  const attempt = useMutation(
    (_kind: "verify" | "save", job: () => Promise<void>) => {
      setNotice(null);
      return job();
    },
    {
      onError: (err) => {
        showRefusal(err);
        return true;
      },
    },
  );
  const busy = attempt.busyKey;

  const verify = async () => {
    const values = await form.validateFields(["host", "port", "username", "database", "ddl"]).then(
      () => form.getFieldsValue(),
      () => null,
    );
    if (!values) return;
    await attempt.run("verify", async () => {
      const r: TVerifyResult = await callTrpc(() =>
        trpc.databaseSets.verify.mutate({
          host: values.host,
          port: values.port,
          username: values.username,
          password: values.password ?? "",
          database: values.database,
          ddl: values.ddl,
          id: set?.id,
        }),
      );
      setNotice(
        r.ok
          ? { type: "success", text: t("verify_ok", { version: r.server_version, tables: r.tables.join(", ") }) }
          : { type: "error", text: t("verify_failed", { reason: describeFailure(t, r.failure) }) },
      );
    });
  };

  const save = (values: TValues) =>
    attempt.run("save", async () => {
      const input = { ...values, introduction: values.introduction ?? "", password: values.password ?? "" };
      const saved = set
        ? await callTrpc(() => trpc.databaseSets.update.mutate({ ...input, id: set.id }))
        : await callTrpc(() => trpc.databaseSets.create.mutate(input));
      message.success(t("saved"));
      onSaved(saved);
    });

  return (
    <Card className="db-form" data-testid="database-form">
      <Form<TValues>
        form={form}
        layout="vertical"
        requiredMark
        initialValues={{
          name: set?.name ?? "",
          introduction: set?.introduction ?? "",
          host: set?.host ?? "",
          port: set?.port ?? 3306,
          username: set?.username ?? "",
          password: "",
          database: set?.database ?? "",
          ddl: set?.ddl ?? "",
        }}
        onFinish={(v) => void save(v)}
        onValuesChange={() => notice && setNotice(null)}
      >
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="name" label={t("fields.name")} rules={[zodRule(ZSetName, t)]} required>
              <Input placeholder={t("placeholders.name")} maxLength={TRAINING_SET_NAME_MAX} showCount data-testid="db-name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="introduction" label={t("fields.introduction")} rules={[zodRule(ZSetIntroduction, t)]}>
              <Input placeholder={t("placeholders.introduction")} maxLength={TRAINING_SET_INTRO_MAX} data-testid="db-introduction" />
            </Form.Item>
          </Col>
          <Col xs={24} md={16}>
            <Form.Item name="host" label={t("fields.host")} rules={[zodRule(shape.host, t)]} required>
              <Input placeholder={t("placeholders.host")} autoComplete="off" data-testid="db-host" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="port" label={t("fields.port")} rules={[zodRule(shape.port, t)]} required>
              <InputNumber min={1} max={65535} precision={0} style={{ width: "100%" }} data-testid="db-port" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="username" label={t("fields.username")} rules={[zodRule(shape.username, t)]} required>
              <Input autoComplete="off" data-testid="db-username" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item
              name="password"
              label={t("fields.password")}
              required={!set}
              extra={set ? t("fields.password_keep") : undefined}
              rules={set ? [] : [{ required: true, message: t("validation.required", { ns: "errors" }) }]}
            >
              <Input.Password autoComplete="new-password" placeholder={set?.password_hint || undefined} data-testid="db-password" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="database" label={t("fields.database")} rules={[zodRule(shape.database, t)]} required>
              <Input autoComplete="off" data-testid="db-database" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="ddl" label={t("fields.ddl")} extra={t("fields.ddl_help")} rules={[zodRule(ZDdl, t)]} required>
          <Input.TextArea
            className="db-form__ddl"
            autoSize={{ minRows: 8, maxRows: 20 }}
            placeholder={t("placeholders.ddl")}
            spellCheck={false}
            data-testid="db-ddl"
          />
        </Form.Item>
        <div className={`db-form__count${chars > DDL_MAX_CHARS ? " is-over" : ""}`} data-testid="db-ddl-count">
          {t("fields.ddl_count", { used: num(chars), max: num(DDL_MAX_CHARS) })}
        </div>
        <GrantHelp username={username} database={database} ddl={ddl} />
        {notice && <Alert className="db-form__notice" type={notice.type} showIcon message={notice.text} data-testid="db-notice" data-kind={notice.type} />}
        <Space wrap className="db-form__actions">
          <Button icon={<CheckCircleOutlined />} onClick={() => void verify()} loading={busy === "verify"} disabled={busy === "save"} data-testid="db-verify">
            {busy === "verify" ? t("verifying") : t("verify")}
          </Button>
          <Button type="primary" htmlType="submit" loading={busy === "save"} disabled={busy === "verify"} data-testid="db-save">
            {t("save")}
          </Button>
        </Space>
      </Form>
    </Card>
  );
}
