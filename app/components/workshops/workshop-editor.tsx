// The roles-and-nodes editor (/CreatedWorkshop?id=): the workshop's roles, its nodes in order and
// its run limits, checked in the browser exactly as the server checks them, saved over the
// revision it loaded (a save from elsewhere meanwhile is refused, not overwritten); then run it,
// and see which published apps still run an older version and sync them by hand.
import { ApartmentOutlined, ArrowLeftOutlined, EditOutlined, PlayCircleOutlined, SaveOutlined } from "@ant-design/icons";
import { Alert, Avatar, Button, Form, Space } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { callTrpc, trpc } from "../../lib/trpc";
import { useLeaveGuard } from "../agent-editor/use-leave-guard";
import type { TUsableAgent, TWorkshopApp, TWorkshopDetail } from "../../../server/workshops/workshops.schema";
import { toDefinitionValues, type TDefinitionValues } from "./definition-values";
import { LimitsCard } from "./limits-card";
import { NodesCard } from "./nodes-card";
import { PublishedApps } from "./published-apps";
import { RolesCard } from "./roles-card";
import { useDefinitionSave, useRoleFollowing } from "./use-definition-save";
import { WORKSHOP_LIST_PATH, useWorkshopNavigate, workshopInfoPath, workshopRunPath } from "./workshop-links";
import "./workshops.css";

type TProps = { workshop: TWorkshopDetail; agents: TUsableAgent[]; apps: TWorkshopApp[] };

export function WorkshopEditor({ workshop, agents, apps: initialApps }: TProps) {
  const { t } = useTranslation("workshops");
  const navigate = useWorkshopNavigate();
  const [form] = Form.useForm<TDefinitionValues>();
  const initialValues = useMemo(() => toDefinitionValues(workshop.definition, t("editor.node_default", { n: 1 })), [workshop.definition, t]);
  const [dirty, setDirty] = useState(false);
  const [apps, setApps] = useState(initialApps);
  const guard = useLeaveGuard(dirty);
  const kinds = useMemo(() => new Map(agents.map((a) => [a.id, a.modelKind])), [agents]);
  const stale = apps.filter((a) => !a.inSync).length;
  const reloadApps = () =>
    callTrpc(() => trpc.workshopApps.list.query({ id: workshop.id }))
      .then(setApps)
      .catch(() => undefined);
  const { save, saving, revision, sections } = useDefinitionSave({
    form,
    workshopId: workshop.id,
    revision: workshop.revision,
    kindOf: (id) => kinds.get(id),
    onSaved: () => {
      setDirty(false);
      guard.release();
      void reloadApps();
    },
  });
  const { followRoles, removeRole } = useRoleFollowing(
    form,
    initialValues.roles.map((r) => r.name),
  );

  const run = async () => {
    if (dirty && !(await save())) return;
    navigate(workshopRunPath(workshop.id));
  };

  return (
    <div className="ws-editor ws" data-testid="workshop-editor" data-revision={revision}>
      <Button type="link" className="ws-back" icon={<ArrowLeftOutlined />} onClick={() => navigate(WORKSHOP_LIST_PATH)}>
        {t("editor.back")}
      </Button>
      <div className="ws-editor__head">
        <Space size={12} align="center" className="ws-editor__title">
          <Avatar size={44} shape="square" src={workshop.iconUrl || undefined} icon={<ApartmentOutlined />} />
          <div>
            <h1 className="console__title ws-editor__name">{workshop.name}</h1>
            <Button type="link" size="small" className="ws-editor__info" icon={<EditOutlined />} onClick={() => navigate(workshopInfoPath(workshop.id))}>
              {t("editor.edit_info")}
            </Button>
          </div>
        </Space>
        <EditorActions saving={saving} onSave={() => void save()} onRun={() => void run()} />
      </div>
      <p className="console__hint">{t("editor.lead")}</p>
      {dirty && <Alert type="info" showIcon className="ws-editor__notice" message={t("editor.unsaved")} data-testid="workshop-unsaved" />}
      {!dirty && stale > 0 && (
        <Alert
          type="warning"
          showIcon
          className="ws-editor__notice"
          message={t("apps.stale", { count: stale })}
          action={
            <Button size="small" type="link" href="#workshop-apps">
              {t("apps.review")}
            </Button>
          }
          data-testid="workshop-apps-stale"
        />
      )}
      <Form
        form={form}
        layout="vertical"
        initialValues={initialValues}
        onValuesChange={(changed: Partial<TDefinitionValues>, all: TDefinitionValues) => {
          setDirty(true);
          if (changed.roles) followRoles(all.roles);
        }}
        onFieldsChange={(changed) => {
          // A field the person changes loses its old error; the check runs again on saving.
          const stale = changed.filter((f) => f.errors?.length);
          if (stale.length) form.setFields(stale.map((f) => ({ name: f.name, errors: [] })));
        }}
        className="ws-editor__form"
        data-testid="workshop-editor-form"
      >
        <RolesCard agents={agents} issues={sections.roles} onRemove={removeRole} />
        <NodesCard issues={sections.nodes} />
        <LimitsCard issues={sections.limits} />
      </Form>
      <div className="ws-editor__foot">
        <EditorActions saving={saving} onSave={() => void save()} onRun={() => void run()} />
      </div>
      <PublishedApps workshopId={workshop.id} apps={apps} dirty={dirty} onSynced={() => void reloadApps()} />
    </div>
  );
}

function EditorActions({ saving, onSave, onRun }: { saving: boolean; onSave: () => void; onRun: () => void }) {
  const { t } = useTranslation("workshops");
  return (
    <Space wrap>
      <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={onSave} data-testid="workshop-save">
        {t("editor.save")}
      </Button>
      <Button icon={<PlayCircleOutlined />} disabled={saving} onClick={onRun} data-testid="workshop-run-button">
        {t("editor.run")}
      </Button>
    </Space>
  );
}
