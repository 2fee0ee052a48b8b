// /application?id=: one of my apps in numbers (people, dialogues and messages per day, feedback),
// its dialogues with filters and their messages, exports to xlsx, and the share panel.
// Another account's app, or none, is the not-found page.
import { ShareAltOutlined } from "@ant-design/icons";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Avatar, Button, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { SharePanel } from "../../components/apps/share-panel";
import { DialoguesCard } from "../../components/apps/app-data/dialogues-card";
import { lastDays } from "../../components/apps/app-data/date-range";
import { OverviewCard } from "../../components/apps/app-data/overview-card";
import { requireSessionAccount } from "../../lib/auth.server";
import { orNotFound } from "../../lib/or-not-found.server";
import { getEnv } from "../../../server/env";
import { getAppOverview, listAppDialogues } from "../../../server/apps/app-data.service";
import { listAppExports } from "../../../server/apps/app-export.service";
import { getShareCredit } from "../../../server/money/distribution/share-credit";
import "../../components/apps/share.css";
import "../../components/apps/app-data/app-data.css";

export const handle = { i18n: ["appdata", "share"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  const url = new URL(request.url);
  const appId = url.searchParams.get("id") ?? "";
  const overviewRange = lastDays(7);
  const dialogueRange = lastDays(30);
  const [overview, dialogues, exports] = await orNotFound(() =>
    Promise.all([
      getAppOverview(account, { appId, range: overviewRange }),
      listAppDialogues(account, { appId, filters: { range: dialogueRange }, page: 1, pageSize: 20 }),
      listAppExports(account, { appId }),
    ]),
  );
  const origin = (getEnv().PUBLIC_URL ?? url.origin).replace(/\/+$/, "");
  return { overview, overviewRange, dialogues, dialogueRange, exports, touser: account.id, origin, shareCredit: getShareCredit(account) };
}

export default function ApplicationPage() {
  const { t } = useTranslation("appdata");
  const data = useLoaderData<typeof loader>();
  const { app } = data.overview;
  const [sharing, setSharing] = useState(false);
  return (
    <div className="console__page appdata-page" data-testid="appdata-page" data-app-id={app.id}>
      <div className="appdata-head">
        <div className="appdata-head__app">
          <Avatar shape="square" size={48} src={app.icon_url || undefined}>
            {app.name.slice(0, 1)}
          </Avatar>
          <div>
            <h1 className="console__title appdata-head__name">{app.name}</h1>
            <span className="appdata-head__tags">
              <Tag>{t(`types.${app.type}`, { defaultValue: app.type })}</Tag>
              <Tag color={app.state === "on_shelf" ? "green" : app.state === "removed" ? "red" : "default"}>
                {t(`states.${app.state}`, { defaultValue: app.state })}
              </Tag>
            </span>
          </div>
        </div>
        <Button type="primary" icon={<ShareAltOutlined />} onClick={() => setSharing(true)} data-testid="appdata-share">
          {t("share")}
        </Button>
      </div>
      <div className="appdata-stack">
        <OverviewCard appId={app.id} initial={data.overview} initialRange={data.overviewRange} />
        <DialoguesCard appId={app.id} initial={data.dialogues} initialRange={data.dialogueRange} exports={data.exports} />
      </div>
      <SharePanel app={sharing ? app : null} touser={data.touser} credit={data.shareCredit} origin={data.origin} onClose={() => setSharing(false)} />
    </div>
  );
}
