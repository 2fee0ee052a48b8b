import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { Alert, Button, Table } from "antd";
import { useTranslation } from "react-i18next";
import { getEnv } from "../../../server/env";
import { findDevSmsMessages } from "../../../server/auth/sms/dev-sms-provider";

export const handle = { i18n: ["auth"] };

/** Development only: what the dev SMS provider "sent". Absent (404) with a real provider. */
export async function loader(_args: LoaderFunctionArgs) {
  if (getEnv().SMS_PROVIDER !== "dev") throw new Response("Not Found", { status: 404 });
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
      <Button onClick={() => revalidator.revalidate()} style={{ marginBottom: 12 }}>{t("dev_sms.refresh")}</Button>
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
