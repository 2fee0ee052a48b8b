import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { Alert, Button, Table } from "antd";
import { useTranslation } from "react-i18next";
import { hasRole } from "../../../server/accounts/access";
import { findDevSmsMessages, isDevSmsActive } from "../../../server/auth/sms/dev-sms-provider";
import { getSessionAccount } from "../../lib/auth.server";

export const handle = { i18n: ["auth"] };

/**
 * What the development SMS provider "sent". A code here signs its phone in, so the page exists only
 * for platform administrators, and only while the development provider is the one in use: anyone
 * else, signed in or not, gets the not-found page, as for a path that does not exist.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const account = isDevSmsActive() ? await getSessionAccount(request) : null;
  if (!hasRole(account, "platform_admin")) throw new Response("Not Found", { status: 404 });
  const rows = await findDevSmsMessages(30);
  return { messages: rows.map((m) => ({ phone: m.phone, text: m.text, at: m.createdAt.toISOString() })) };
}

export default function DevSms() {
  const { t } = useTranslation("auth");
  const { messages } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  return (
    <main className="section section--tight" data-testid="dev-sms">
      <h1 className="section__title">{t("dev_sms.title")}</h1>
      <Alert type="warning" showIcon message={t("dev_sms.warning")} style={{ marginBottom: 16 }} />
      <Button onClick={() => revalidator.revalidate()} style={{ marginBottom: 12 }}>
        {t("dev_sms.refresh")}
      </Button>
      <Table
        rowKey={(r) => `${r.phone}-${r.at}`}
        dataSource={messages}
        pagination={false}
        columns={[
          { title: t("fields.phone"), dataIndex: "phone" },
          { title: t("dev_sms.text"), dataIndex: "text", render: (v: string) => <span data-testid="dev-sms-text">{v}</span> },
          { title: t("dev_sms.time"), dataIndex: "at", render: (v: string) => new Date(v).toLocaleString() },
        ]}
      />
    </main>
  );
}
