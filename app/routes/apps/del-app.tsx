// /del_app: my deleted apps; restore one, or delete it for good.
import { PictureOutlined } from "@ant-design/icons";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Avatar, Button, Card, Empty, List, Space, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { LocalDate } from "../../components/ui/local-date";
import { useAppAction } from "../../components/apps/use-app-action";
import { requireSessionAccount } from "../../lib/auth.server";
import { callTrpc, trpc } from "../../lib/trpc";
import { listApps } from "../../../server/apps/apps.service";
import "../../components/apps/app-form/app-form.css";

export const handle = { i18n: ["apps"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  return { apps: await listApps(account, { deleted: true }) };
}

export default function DelAppPage() {
  const { t } = useTranslation("apps");
  const { apps } = useLoaderData<typeof loader>();
  const { busyId, run, confirm } = useAppAction();
  return (
    <div className="console__page" data-testid="del-app-page">
      <div className="apps-page__head">
        <h1 className="console__title">{t("bin.title")}</h1>
        <AppLink to="/my_app">{t("bin.back")}</AppLink>
      </div>
      <p className="app-form__muted">{t("bin.note")}</p>
      <Card>
        {apps.length === 0 ? (
          <Empty description={t("bin.empty")} data-testid="del-app-empty" />
        ) : (
          <List
            dataSource={apps}
            renderItem={(app) => (
              <List.Item
                data-testid="del-app-row"
                data-name={app.name}
                actions={[
                  <Button
                    key="restore"
                    size="small"
                    type="primary"
                    loading={busyId === app.id}
                    onClick={() => run(app.id, () => callTrpc(() => trpc.apps.restore.mutate({ id: app.id })), t("done.restored"))}
                    data-testid="del-app-restore"
                  >
                    {t("actions.restore")}
                  </Button>,
                  <Button
                    key="purge"
                    size="small"
                    danger
                    loading={busyId === app.id}
                    onClick={() =>
                      confirm(
                        app.id,
                        t("confirm.purge", { name: app.name }),
                        () => callTrpc(() => trpc.apps.purge.mutate({ id: app.id })),
                        t("done.purged"),
                        true,
                      )
                    }
                    data-testid="del-app-purge"
                  >
                    {t("actions.purge")}
                  </Button>,
                ]}
              >
                <List.Item.Meta
                  avatar={<Avatar shape="square" src={app.icon_url || undefined} icon={<PictureOutlined />} />}
                  title={
                    <Space size={6} wrap>
                      {app.name}
                      <Tag>{t(`type.${app.type}`)}</Tag>
                    </Space>
                  }
                  description={app.deleted_at ? t("bin.deleted_at", { date: "" }) : null}
                />
                {app.deleted_at && <LocalDate iso={app.deleted_at} />}
              </List.Item>
            )}
          />
        )}
      </Card>
    </div>
  );
}
