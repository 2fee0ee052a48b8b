// /my_app: my apps by type and state, why a removed app was removed, and the actions each state
// allows (server/apps/app-lifecycle.ts): edit, submit, take down, put back, delete, open, data.
import { PictureOutlined, PlusOutlined, ShareAltOutlined } from "@ant-design/icons";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { Avatar, Button, Card, Col, Empty, Row, Select, Space, Tabs, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AppLink, useAppNavigate } from "../../components/app-link";
import { AppStateTag } from "../../components/apps/app-state-tag";
import { SharePanel, type TShareApp } from "../../components/apps/share-panel";
import { useAppAction } from "../../components/apps/use-app-action";
import { requireSessionAccount } from "../../lib/auth.server";
import { callTrpc, trpc } from "../../lib/trpc";
import { listApps } from "../../../server/apps/apps.service";
import { getShareCredit } from "../../../server/money/distribution/share-credit";
import { APP_STATES, APP_TYPES, type TAppState, type TAppType, type TAppView } from "../../../server/apps/apps.schema";
import "../../components/apps/app-form/app-form.css";

export const handle = { i18n: ["apps", "share", "appdata"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  const url = new URL(request.url);
  const type = (APP_TYPES as readonly string[]).includes(url.searchParams.get("type") ?? "") ? (url.searchParams.get("type") as TAppType) : "h5";
  const state = (APP_STATES as readonly string[]).includes(url.searchParams.get("state") ?? "") ? (url.searchParams.get("state") as TAppState) : undefined;
  return {
    type,
    state: state ?? null,
    apps: await listApps(account, { type, state, deleted: false }),
    touser: account.id,
    shareCredit: getShareCredit(account),
  };
}

export const editPathOf = (app: Pick<TAppView, "id" | "type">) =>
  app.type === "api"
    ? `/create_api?id=${encodeURIComponent(app.id)}`
    : `/create_app?id=${encodeURIComponent(app.id)}${app.type === "h5" ? "" : `&type=${app.type}`}`;

function AppCard({ app, onShare }: { app: TAppView; onShare: (app: TShareApp) => void }) {
  const { busyId, run, confirm, t } = useAppAction();
  const busy = busyId === app.id;
  const id = { id: app.id };
  return (
    <Card className="apps-card" data-testid="my-app-row" data-app-id={app.id} data-name={app.name}>
      <div className="apps-card__top">
        <Avatar size={56} shape="square" src={app.icon_url || undefined} icon={<PictureOutlined />} />
        <div className="apps-card__body">
          <Space size={6} wrap>
            <span className="apps-card__name">{app.name}</span>
            <AppStateTag state={app.state} />
            {!app.is_public && <Tag>{t("list.private")}</Tag>}
          </Space>
          <div className="apps-card__intro">{app.introduction}</div>
          {app.agent_names.length > 0 && <div className="app-form__muted">{t("list.agent", { name: app.agent_names.join(", ") })}</div>}
          {app.state === "removed" && app.removed_reason && (
            <div className="apps-page__reason" data-testid="my-app-removed-reason">
              {t("list.removed_reason", { reason: app.removed_reason })}
            </div>
          )}
          {/* The review policy decides whether the link works already (app-review-policy.ts). */}
          {app.state === "under_review" && (
            <div className="app-form__muted" data-testid="my-app-review-note" data-link-open={String(app.link_open)}>
              {t(app.link_open ? "list.under_review_link_open" : "list.under_review_note")}
            </div>
          )}
        </div>
      </div>
      <div className="apps-card__actions">
        <AppLink to={editPathOf(app)}>
          <Button size="small" data-testid="my-app-edit">
            {t("actions.edit")}
          </Button>
        </AppLink>
        {app.state === "removed" && (
          <Button
            size="small"
            type="primary"
            loading={busy}
            onClick={() => run(app.id, () => callTrpc(() => trpc.apps.submit.mutate(id)), t("done.submitted"))}
            data-testid="my-app-submit"
          >
            {t("actions.submit")}
          </Button>
        )}
        {app.state === "on_shelf" && (
          <Button
            size="small"
            loading={busy}
            onClick={() =>
              confirm(app.id, t("confirm.take_down", { name: app.name }), () => callTrpc(() => trpc.apps.takeDown.mutate(id)), t("done.taken_down"))
            }
            data-testid="my-app-take-down"
          >
            {t("actions.take_down")}
          </Button>
        )}
        {app.state === "off_shelf" && (
          <Button
            size="small"
            type="primary"
            loading={busy}
            onClick={() => run(app.id, () => callTrpc(() => trpc.apps.putBack.mutate(id)), t("done.put_back"))}
            data-testid="my-app-put-back"
          >
            {t("actions.put_back")}
          </Button>
        )}
        {app.type !== "api" && (
          <a href={`/share?app=${encodeURIComponent(app.id)}`} target="_blank" rel="noreferrer">
            <Button size="small" data-testid="my-app-open">
              {t("actions.open")}
            </Button>
          </a>
        )}
        {app.type !== "api" && (
          <Button size="small" icon={<ShareAltOutlined />} onClick={() => onShare(app)} data-testid="my-app-share">
            {t("share", { ns: "appdata" })}
          </Button>
        )}
        <AppLink to={`/application?id=${encodeURIComponent(app.id)}`}>
          <Button size="small" data-testid="my-app-data">
            {t("actions.data")}
          </Button>
        </AppLink>
        <Button
          size="small"
          danger
          loading={busy}
          onClick={() => confirm(app.id, t("confirm.delete", { name: app.name }), () => callTrpc(() => trpc.apps.delete.mutate(id)), t("done.deleted"), true)}
          data-testid="my-app-delete"
        >
          {t("actions.delete")}
        </Button>
      </div>
    </Card>
  );
}

export default function MyAppPage() {
  // Every namespace the cards and the share panel read, loaded before the first paint after a
  // client-side navigation: a card's t("share", { ns: "appdata" }) alone does not wait for it.
  const { t } = useTranslation(["apps", "appdata", "share"]);
  const { type, state, apps, touser, shareCredit } = useLoaderData<typeof loader>();
  const [sharing, setSharing] = useState<TShareApp | null>(null);
  const [, setParams] = useSearchParams();
  const navigate = useAppNavigate();
  const setFilter = (next: { type?: string; state?: string | null }) =>
    setParams((p) => {
      if (next.type) p.set("type", next.type);
      if (next.state !== undefined) {
        if (next.state) p.set("state", next.state);
        else p.delete("state");
      }
      return p;
    });
  const createPath = type === "api" ? "/create_api" : type === "h5" ? "/create_app" : `/create_app?type=${type}`;

  return (
    <div className="console__page" data-testid="my-app-page">
      <div className="apps-page__head">
        <h1 className="console__title">{t("list.title")}</h1>
        <Space wrap>
          <AppLink to="/del_app">{t("list.recycle_bin")}</AppLink>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(createPath)} data-testid="my-app-create">
            {t("list.create", { type: t(`type.${type}`) })}
          </Button>
        </Space>
      </div>
      <Tabs
        activeKey={type}
        onChange={(k) => setFilter({ type: k })}
        items={APP_TYPES.map((k) => ({ key: k, label: t(`type.${k}`) }))}
        data-testid="my-app-types"
      />
      <Select
        allowClear
        placeholder={t("list.all_states")}
        value={state ?? undefined}
        onChange={(v) => setFilter({ state: v ?? null })}
        options={APP_STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))}
        style={{ minWidth: 160, marginBottom: 16 }}
        data-testid="my-app-state-filter"
      />
      {apps.length === 0 ? (
        <Card>
          <Empty description={t("list.empty")} data-testid="my-app-empty" />
        </Card>
      ) : (
        <Row gutter={[12, 0]}>
          {apps.map((app) => (
            <Col key={app.id} xs={24} lg={12}>
              <AppCard app={app} onShare={setSharing} />
            </Col>
          ))}
        </Row>
      )}
      <SharePanel app={sharing} touser={touser} credit={shareCredit} onClose={() => setSharing(null)} />
    </div>
  );
}
