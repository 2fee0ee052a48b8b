// The apps that publish this workshop, beside the editor: each runs the version it pinned until
// its developer syncs it by hand, so each shows its version and what a sync would change (roles
// and nodes added, removed or changed; the run limits), and syncs only after that is confirmed.
import { CheckCircleOutlined, SendOutlined, SyncOutlined } from "@ant-design/icons";
import { App, Button, Card, Empty, List, Space, Tag, type ButtonProps } from "antd";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import { AppStateTag } from "../apps/app-state-tag";
import type { TAppState } from "../../../server/apps/apps.schema";
import type { TDefinitionChanges, TWorkshopApp } from "../../../server/workshops/workshops.schema";
import { publishWorkshopPath, useWorkshopNavigate, workshopAppPath } from "./workshop-links";

/** The changes as sentences: "Roles added: A, B", one per kind of change. */
export function describeChanges(c: TDefinitionChanges, t: TFunction): string[] {
  const lines: string[] = [];
  for (const what of ["roles", "nodes"] as const)
    for (const how of ["added", "removed", "changed"] as const)
      if (c[what][how].length) lines.push(t(`apps.change.${what}_${how}`, { names: c[what][how].join(", ") }));
  if (c.limits) lines.push(t("apps.change.limits"));
  return lines;
}

function AppRow({ app, dirty, onSynced }: { app: TWorkshopApp; dirty: boolean; onSynced: () => void }) {
  const { t } = useTranslation("workshops");
  const { message, modal } = App.useApp();
  const changes = describeChanges(app.changes, t);
  const sync = useMutation(async () => {
    const done = await callTrpc(() => trpc.workshopApps.sync.mutate({ app_id: app.appId }));
    message.success(t("apps.synced", { version: done.versionNumber }));
    onSynced();
  });
  const confirm = () =>
    modal.confirm({
      title: t("apps.sync_confirm", { name: app.name }),
      content: (
        <div data-testid="workshop-sync-changes">
          <p>{t("apps.sync_lead")}</p>
          <ul className="ws-changes">{changes.length ? changes.map((line) => <li key={line}>{line}</li>) : <li>{t("apps.change.none")}</li>}</ul>
          {dirty && <p className="ws-changes__warn">{t("apps.sync_unsaved")}</p>}
        </div>
      ),
      okText: t("apps.sync"),
      okButtonProps: { "data-testid": "workshop-sync-ok" } as ButtonProps,
      onOk: () => sync.run(),
    });
  return (
    <List.Item className="ws-app" data-testid="workshop-app" data-app-id={app.appId} data-in-sync={String(app.inSync)}>
      <div className="ws-app__main">
        <Space wrap size={6}>
          <b>{app.name}</b>
          <AppStateTag state={app.state as TAppState} />
          <Tag data-testid="workshop-app-version">{app.versionNumber ? t("apps.version", { n: app.versionNumber }) : t("apps.no_version")}</Tag>
          {app.inSync && (
            <Tag color="success" icon={<CheckCircleOutlined />}>
              {t("apps.in_sync")}
            </Tag>
          )}
        </Space>
        {!app.inSync && (
          <ul className="ws-changes" data-testid="workshop-app-changes">
            {(changes.length ? changes : [t("apps.change.saved_only")]).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        )}
      </div>
      <Space wrap>
        <a href={workshopAppPath(app.appId)} target="_blank" rel="noreferrer">
          {t("apps.open")}
        </a>
        {!app.inSync && (
          <Button size="small" type="primary" icon={<SyncOutlined />} loading={sync.busy} onClick={confirm} data-testid="workshop-app-sync">
            {t("apps.sync")}
          </Button>
        )}
      </Space>
    </List.Item>
  );
}

export function PublishedApps({ workshopId, apps, dirty, onSynced }: { workshopId: string; apps: TWorkshopApp[]; dirty: boolean; onSynced: () => void }) {
  const { t } = useTranslation("workshops");
  const navigate = useWorkshopNavigate();
  const publish = (
    <Button icon={<SendOutlined />} onClick={() => navigate(publishWorkshopPath(workshopId))} data-testid="workshop-publish-new">
      {t("apps.publish")}
    </Button>
  );
  return (
    <Card id="workshop-apps" title={t("apps.title")} className="ws-section" extra={apps.length ? publish : null} data-testid="workshop-apps">
      <p className="ws-section__lead">{t("apps.lead")}</p>
      {apps.length === 0 ? (
        <Empty description={t("apps.none")} image={Empty.PRESENTED_IMAGE_SIMPLE}>
          {publish}
        </Empty>
      ) : (
        <List dataSource={apps} rowKey="appId" renderItem={(app) => <AppRow app={app} dirty={dirty} onSynced={onSynced} />} />
      )}
    </Card>
  );
}
