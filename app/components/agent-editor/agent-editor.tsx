// The agent editor (/agentDetail): one form in folding sections, saved through tRPC as the agent's
// single draft, beside a live debug chat of what the form holds. A version that left draft is never
// changed: editing it saves a new, higher draft. Wide screens show both panes; narrower ones open
// the debug chat in a drawer.
import { BugOutlined, CloudUploadOutlined, SaveOutlined, SendOutlined } from "@ant-design/icons";
import { Alert, App, Button, Drawer, Form, Space, Tag, type ButtonProps } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TAgentDetail } from "../../../server/agents/agents.schema";
import { AppLink, useAppNavigate, useIsMobi } from "../app-link";
import { compareVersions } from "../../../server/agents/agents.schema";
import { bumpVersion, newAgentInput, toFormValues, type TAgentFormValues } from "./agent-form-values";
import type { TEditorModel } from "./agent-rules";
import { sectionsOfFields, startOpenSections, type TSectionKey } from "./agent-sections";
import { AgentStateTag } from "./agent-state-tag";
import { DebugPane } from "./debug-pane";
import { EditorSections } from "./editor-sections";
import { useAgentActions } from "./use-agent-actions";
import { useDebugChat } from "./use-debug-chat";
import { useDraftDebug } from "./use-draft-debug";
import { useLeaveGuard } from "./use-leave-guard";
import { useWideEditor } from "./use-wide-editor";
import "./agent-editor.css";

/** What the form starts from: the draft as it is, or a live/under-review version as the next draft. */
function startValues(detail: TAgentDetail | null, models: TEditorModel[]): TAgentFormValues {
  if (!detail) return toFormValues(newAgentInput(models[0]?.key ?? ""));
  if (detail.config_editable) return toFormValues(detail.config);
  const highest =
    detail.versions
      .map((v) => v.version)
      .sort(compareVersions)
      .at(-1) ?? detail.config.version;
  return toFormValues({ ...detail.config, version: bumpVersion(highest), update_note: "" });
}

type TProps = {
  initial: TAgentDetail | null;
  models: TEditorModel[];
  plugins: string[];
  limitMessage: string | null;
  /** A new agent got its id by this editor's save: the page keeps the editor (and its debug chat). */
  onCreated?: (id: string) => void;
};

export function AgentEditor({ initial, models, plugins, limitMessage, onCreated }: TProps) {
  const { t } = useTranslation("agents");
  const { modal } = App.useApp();
  const navigate = useAppNavigate();
  const mobi = useIsMobi();
  const wide = useWideEditor() && !mobi;
  const openDebugChat = useDebugChat();
  const [form] = Form.useForm<TAgentFormValues>();
  const [detail, setDetail] = useState(initial);
  const [dirty, setDirty] = useState(false);
  const initialValues = useMemo(() => startValues(initial, models), [initial, models]);
  const [open, setOpen] = useState<TSectionKey[]>(() => startOpenSections(initialValues));
  const [withErrors, setWithErrors] = useState<TSectionKey[]>([]);
  const [debugOpen, setDebugOpen] = useState(false);
  const guard = useLeaveGuard(dirty);

  /** Unfolds the sections of fields just refused, then brings the first one into view. */
  const reveal = (names: (string | number)[][]) => {
    const sections = sectionsOfFields(names);
    if (!sections.length) return;
    setOpen((was) => [...new Set([...was, ...sections])]);
    setTimeout(() => form.scrollToField(names[0], { block: "center", behavior: "smooth" }), 250);
  };
  const markErrors = () => {
    const now = sectionsOfFields(
      form
        .getFieldsError()
        .filter((f) => f.errors.length)
        .map((f) => f.name),
    );
    setWithErrors((was) => (was.join() === now.join() ? was : now));
  };

  const onSaved = (saved: TAgentDetail) => {
    setDirty(false);
    setDetail(saved);
    form.setFieldsValue(startValues(saved, models));
    // A new agent gets its address; same page, so the leave guard lets it through.
    if (!detail) {
      onCreated?.(saved.id);
      navigate(`/agentDetail?id=${encodeURIComponent(saved.id)}`, { replace: true });
    }
  };
  const { busy, save, publish } = useAgentActions(form, detail, onSaved, (names) => {
    markErrors();
    setDebugOpen(false);
    reveal(names);
  });

  const shown = detail?.versions.find((v) => v.id === detail.config_version_id);
  const hasDraft = Boolean(detail?.draft);
  const onShelf = detail?.live?.state === "on_shelf";
  // Published for the owner's own use with nothing edited since: it goes to the market as it is.
  const submitsPublished = !dirty && !hasDraft && detail?.live?.state === "published";

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
    const saved = submitsPublished ? detail : await saveFirst();
    if (!saved || (!saved.draft && !submitsPublished)) return;
    guard.release();
    navigate(`/upload?id=${encodeURIComponent(saved.id)}`);
  };
  // The debug chat runs the saved draft: edits are saved first; an agent without edits runs as it is.
  const debug = useDraftDebug(async () => {
    if (limitMessage) return null;
    const saved = dirty || !detail ? await save({ quiet: true }) : detail;
    return saved?.id ?? null;
  });
  const pane = (
    <DebugPane
      debug={debug}
      editor={form}
      blocked={limitMessage}
      onClose={wide ? undefined : () => setDebugOpen(false)}
      onOpenPage={detail ? () => openDebugChat(detail.id) : undefined}
    />
  );

  return (
    <div
      className={`agent-editor${wide ? " agent-editor--split" : ""}`}
      data-testid="agent-editor"
      data-agent-id={detail?.id ?? ""}
      data-dirty={dirty ? "1" : "0"}
    >
      <div className="agent-editor__main">
        <div className="agent-editor__head">
          <Space wrap size={8} align="center">
            <h1 className="console__title agent-editor__title">{detail ? detail.name : t("editor.new_title")}</h1>
            {shown && <AgentStateTag state={shown.state} />}
            {dirty && (
              <Tag color="orange" data-testid="unsaved-tag">
                {t("editor.unsaved")}
              </Tag>
            )}
          </Space>
          {/* On a phone the actions stay in reach while scrolling the long form. */}
          <Space wrap size={mobi ? 6 : 8} className="agent-editor__actions">
            <Button
              size={mobi ? "small" : "middle"}
              type="primary"
              icon={<SaveOutlined />}
              loading={busy === "save"}
              disabled={Boolean(limitMessage)}
              onClick={() => void save()}
              data-testid="agent-save"
            >
              {t("editor.save_draft")}
            </Button>
            <Button
              size={mobi ? "small" : "middle"}
              icon={<CloudUploadOutlined />}
              loading={busy === "publish"}
              disabled={Boolean(limitMessage) || onShelf || (!dirty && !hasDraft)}
              onClick={() => void onPublish()}
              data-testid="agent-publish"
            >
              {t("editor.publish")}
            </Button>
            <Button
              size={mobi ? "small" : "middle"}
              icon={<SendOutlined />}
              disabled={Boolean(limitMessage) || Boolean(detail?.under_review) || (!dirty && !hasDraft && !submitsPublished)}
              onClick={() => void onSubmit()}
              data-testid="agent-submit"
            >
              {t("editor.submit")}
            </Button>
            {!wide && (
              <Button size={mobi ? "small" : "middle"} icon={<BugOutlined />} onClick={() => setDebugOpen(true)} data-testid="agent-debug">
                {t("editor.debug")}
              </Button>
            )}
          </Space>
        </div>

        {limitMessage && (
          <Alert
            type="error"
            showIcon
            className="agent-editor__notice"
            title={t("creator.limit_title")}
            description={limitMessage}
            data-testid="limit-notice"
          />
        )}
        {detail && shown && !detail.config_editable && (
          <Alert
            type="info"
            showIcon
            className="agent-editor__notice"
            data-testid="readonly-notice"
            title={t("editor.readonly_title", { version: shown.version, state: t(`agent_state.${shown.state}`, { ns: "common" }) })}
            description={t("editor.readonly_body")}
          />
        )}
        {detail?.under_review && (
          <Alert
            type="warning"
            showIcon
            className="agent-editor__notice"
            data-testid="review-notice"
            title={t("editor.under_review", { version: detail.under_review.version })}
            action={<AppLink to={`/upload?id=${encodeURIComponent(detail.id)}`}>{t("editor.view_submission")}</AppLink>}
          />
        )}
        {detail?.invalid_reason && (
          <Alert
            type="warning"
            showIcon
            className="agent-editor__notice"
            title={t("creator.invalid_reason", { reason: t(`creator.invalid_reasons.${detail.invalid_reason}`, { defaultValue: detail.invalid_reason }) })}
          />
        )}

        <Form
          form={form}
          layout="vertical"
          initialValues={initialValues}
          onValuesChange={() => setDirty(true)}
          onFieldsChange={(changed) => {
            markErrors();
            // Only a field that just got an error unfolds its section: folding one by hand sticks.
            const refused = changed.filter((f) => f.errors?.length).map((f) => f.name as (string | number)[]);
            if (refused.length) setOpen((was) => [...new Set([...was, ...sectionsOfFields(refused)])]);
          }}
          disabled={Boolean(limitMessage)}
          className="agent-editor__form"
        >
          <EditorSections open={open} onOpenChange={setOpen} withErrors={withErrors} models={models} plugins={plugins} detail={detail} />
        </Form>
      </div>
      {wide ? (
        <aside className="agent-editor__debug-col">{pane}</aside>
      ) : (
        <Drawer
          open={debugOpen}
          onClose={() => setDebugOpen(false)}
          placement="right"
          size={mobi ? "100%" : 480}
          closable={false}
          className="agent-editor__debug-drawer"
          styles={{ body: { padding: 0 } }}
          data-testid="debug-drawer"
        >
          {pane}
        </Drawer>
      )}
    </div>
  );
}
