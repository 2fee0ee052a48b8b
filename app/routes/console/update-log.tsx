// /updateLog?id=: the versions of an agent that went live, newest first, with their notes.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Button, Card, Empty, Timeline, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useAppNavigate } from "../../components/app-link";
import { LocalDate } from "../../components/ui/local-date";
import { requireSessionAccount } from "../../lib/auth.server";
import { orNotFound } from "../../lib/or-not-found.server";
import { getUpdateLog } from "../../../server/agents/agents.service";
import "../../components/agent-editor/agent-editor.css";

export const handle = { i18n: ["agents"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  const id = new URL(request.url).searchParams.get("id") ?? "";
  return { id, log: await orNotFound(() => getUpdateLog(account, { id })) };
}

export default function UpdateLog() {
  const { t } = useTranslation("agents");
  const navigate = useAppNavigate();
  const { log } = useLoaderData<typeof loader>();
  return (
    <div className="console__page" data-testid="update-log">
      <div className="agent-page__head">
        <h1 className="console__title">{t("update_log.title", { name: log.name })}</h1>
        <Button onClick={() => navigate("/creator")}>{t("sort.back")}</Button>
      </div>
      <Card>
        {log.entries.length === 0 ? (
          <Empty description={t("update_log.empty")} data-testid="update-log-empty" />
        ) : (
          <Timeline
            items={log.entries.map((e) => ({
              children: (
                <div data-testid="update-log-entry" data-version={e.version}>
                  <Typography.Text strong>v{e.version}</Typography.Text>
                  <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
                    <LocalDate iso={e.published_at} withTime />
                  </Typography.Text>
                  <Typography.Paragraph style={{ whiteSpace: "pre-wrap", margin: "4px 0 0" }} data-testid="update-log-note">
                    {e.update_note || <Typography.Text type="secondary">{t("update_log.no_note")}</Typography.Text>}
                  </Typography.Paragraph>
                </div>
              ),
            }))}
          />
        )}
      </Card>
    </div>
  );
}
