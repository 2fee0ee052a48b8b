// The agent editor (/agentDetail): one form in sections, saved through tRPC as the agent's single
// draft. A version that left draft is never changed: editing it saves a new, higher draft.
import { BugOutlined, CloudUploadOutlined, SaveOutlined, SendOutlined } from "@ant-design/icons";
import { Alert, App, Button, Col, Form, Row, Space, Tag, type ButtonProps } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TAgentDetail } from "../../../server/agents/agents.schema";
import { AppLink, useAppNavigate, useIsMobi } from "../app-link";
import { AbilitiesSection } from "./abilities-section";
import { compareVersions } from "../../../server/agents/agents.schema";
import { bumpVersion, newAgentInput, toFormValues, type TAgentFormValues } from "./agent-form-values";
import type { TEditorModel } from "./agent-rules";
import { AgentStateTag } from "./agent-state-tag";
import { BasicsSection } from "./basics-section";
import { ModelSection } from "./model-section";
import { PricingSection } from "./pricing-section";
import { PromptSection } from "./prompt-section";
import { TrainingSetsSection } from "./training-sets-section";
import { useAgentActions } from "./use-agent-actions";
import { useDebugChat } from "./use-debug-chat";
import { useLeaveGuard } from "./use-leave-guard";
import { VariablesSection } from "./variables-section";
import { VersionHistory } from "./version-history";
import "./agent-editor.css";

/** What the form starts from: the draft as it is, or a live/under-review version as the next draft. */
function startValues(detail: TAgentDetail | null, models: TEditorModel[]): TAgentFormValues {
  if (!detail) return toFormValues(newAgentInput(models[0]?.key ?? ""));
  if (detail.config_editable) return toFormValues(detail.config);
  const highest = detail.versions.map((v) => v.version).sort(compareVersions).at(-1) ?? detail.config.version;
  return toFormValues({ ...detail.config, version: bumpVersion(highest), update_note: "" });
}

type TProps = { initial: TAgentDetail | null; models: TEditorModel[]; plugins: string[]; limitMessage: string | null };

export function AgentEditor({ initial, models, plugins, limitMessage }: TProps) {
  const { t } = useTranslation("agents");
  const { modal } = App.useApp();
  const navigate = useAppNavigate();
  const mobi = useIsMobi();
  const openDebugChat = useDebugChat();
  const [form] = Form.useForm<TAgentFormValues>();
  const [detail, setDetail] = useState(initial);
  const [dirty, setDirty] = useState(false);
  const initialValues = useMemo(() => startValues(initial, models), [initial, models]);
  const guard = useLeaveGuard(dirty);

  const onSaved = (saved: TAgentDetail) => {
    setDirty(false);
    setDetail(saved);
    form.setFieldsValue(startValues(saved, models));
    // A new agent gets its address; same page, so the leave guard lets it through.
    if (!detail) navigate(`/agentDetail?id=${encodeURIComponent(saved.id)}`, { replace: true });
  };
  const { busy, save, publish } = useAgentActions(form, detail, onSaved);

  const shown = detail?.versions.find((v) => v.id === detail.config_version_id);
  const hasDraft = Boolean(detail?.draft);
  const onShelf = detail?.live?.state === "on_shelf";

  const saveFirst = async () => (dirty || !detail || !hasDraft ? save({ quiet: true }) : detail);
  const onPublish = async () => {
    const saved = await saveFirst();
    if (!saved?.draft) return;
    modal.confirm({
      title: t("editor.publish_confirm", { version: saved.draft.version }),
      content: t("editor.publish_confirm_body"),
      okButtonProps: { "data-testid": "publish-ok" } as ButtonProps,
      onOk: () => publish(saved.id),
    });
  };
  const onSubmit = async () => {
    const saved = await saveFirst();
    if (!saved?.draft) return;
    guard.release();
    navigate(`/upload?id=${encodeURIComponent(saved.id)}`);
  };

  return (
    <div className="agent-editor" data-testid="agent-editor" data-agent-id={detail?.id ?? ""} data-dirty={dirty ? "1" : "0"}>
      <div className="agent-editor__head">
        <Space wrap size={8} align="center">
          <h1 className="console__title agent-editor__title">{detail ? detail.name : t("editor.new_title")}</h1>
          {shown && <AgentStateTag state={shown.state} />}
          {dirty && <Tag color="orange" data-testid="unsaved-tag">{t("editor.unsaved")}</Tag>}
        </Space>
        {/* On a phone the actions stay in reach while scrolling the long form. */}
        <Space wrap size={mobi ? 6 : 8} className="agent-editor__actions">
          <Button size={mobi ? "small" : "middle"} type="primary" icon={<SaveOutlined />} loading={busy === "save"} disabled={Boolean(limitMessage)} onClick={() => void save()} data-testid="agent-save">
            {t("editor.save_draft")}
          </Button>
          <Button size={mobi ? "small" : "middle"} icon={<CloudUploadOutlined />} loading={busy === "publish"} disabled={Boolean(limitMessage) || onShelf || (!dirty && !hasDraft)} onClick={() => void onPublish()} data-testid="agent-publish">
            {t("editor.publish")}
          </Button>
          <Button size={mobi ? "small" : "middle"} icon={<SendOutlined />} disabled={Boolean(limitMessage) || Boolean(detail?.under_review) || (!dirty && !hasDraft)} onClick={() => void onSubmit()} data-testid="agent-submit">
            {t("editor.submit")}
          </Button>
          <Button size={mobi ? "small" : "middle"} icon={<BugOutlined />} disabled={!detail} onClick={() => detail && openDebugChat(detail.id)} data-testid="agent-debug">
            {t("editor.debug")}
          </Button>
        </Space>
      </div>

      {limitMessage && <Alert type="error" showIcon className="agent-editor__notice" title={t("creator.limit_title")} description={limitMessage} data-testid="limit-notice" />}
      {detail && shown && !detail.config_editable && (
        <Alert type="info" showIcon className="agent-editor__notice" data-testid="readonly-notice" title={t("editor.readonly_title", { version: shown.version, state: t(`agent_state.${shown.state}`, { ns: "common" }) })} description={t("editor.readonly_body")} />
      )}
      {detail?.under_review && (
        <Alert type="warning" showIcon className="agent-editor__notice" data-testid="review-notice" title={t("editor.under_review", { version: detail.under_review.version })} action={<AppLink to={`/upload?id=${encodeURIComponent(detail.id)}`}>{t("editor.view_submission")}</AppLink>} />
      )}
      {detail?.invalid_reason && <Alert type="warning" showIcon className="agent-editor__notice" title={t("creator.invalid_reason", { reason: t(`creator.invalid_reasons.${detail.invalid_reason}`, { defaultValue: detail.invalid_reason }) })} />}

      <Row gutter={[16, 16]}>
        <Col xs={24} xl={17}>
          <Form form={form} layout="vertical" initialValues={initialValues} onValuesChange={() => setDirty(true)} scrollToFirstError disabled={Boolean(limitMessage)} className="agent-editor__form">
            <Space orientation="vertical" size={16} style={{ width: "100%" }}>
              <BasicsSection />
              <ModelSection models={models} />
              <PromptSection />
              <TrainingSetsSection />
              <VariablesSection />
              <AbilitiesSection models={models} plugins={plugins} />
              <PricingSection />
            </Space>
          </Form>
        </Col>
        <Col xs={24} xl={7}>
          <div className="agent-editor__side">{detail ? <VersionHistory versions={detail.versions} currentId={detail.config_version_id} /> : <Alert type="info" title={t("editor.new_hint")} />}</div>
        </Col>
      </Row>
    </div>
  );
}
