// An API app's key panel (/create_api for an existing API app): the key's hint, when it was made
// and last used; create, reset (the old key stops at once) and revoke. A new key and its secret are
// shown in full once, with copyable curl and `openai` snippets that use them.
import { KeyOutlined } from "@ant-design/icons";
import { Alert, App, Button, Card, Descriptions, Popconfirm, Space, Tabs, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import { LocalDate } from "../ui/local-date";
import type { TApiKeyView, TIssuedApiKey } from "../../../server/apps/api-keys.schema";

const SNIPPET_STYLE = { whiteSpace: "pre-wrap", wordBreak: "break-all", margin: 0, fontSize: 12 } as const;

export function buildCurlSnippet(origin: string, appId: string, key: string) {
  return [
    `curl ${origin}/v1/chat/completions \\`,
    `  -H "Authorization: Bearer ${key}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '{"model": "${appId}", "messages": [{"role": "user", "content": "Hello"}], "stream": false}'`,
  ].join("\n");
}

export function buildOpenAiSnippet(origin: string, appId: string, key: string) {
  return [
    `import OpenAI from "openai";`,
    ``,
    `const client = new OpenAI({ apiKey: "${key}", baseURL: "${origin}/v1" });`,
    `const stream = await client.chat.completions.create({`,
    `  model: "${appId}",`,
    `  messages: [{ role: "user", content: "Hello" }],`,
    `  stream: true,`,
    `});`,
    `for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta?.content ?? "");`,
  ].join("\n");
}

export function ApiKeyPanel({ appId }: { appId: string }) {
  const { t } = useTranslation("apikeys");
  const { message } = App.useApp();
  const [key, setKey] = useState<TApiKeyView | null | undefined>(undefined);
  const [issued, setIssued] = useState<TIssuedApiKey | null>(null);
  // The origin is the browser's (behind a proxy the server may not know it): set after hydration.
  const [origin, setOrigin] = useState("");

  useEffect(() => {
    setOrigin(window.location.origin);
    callTrpc(() => trpc.appApiKeys.get.query({ app_id: appId })).then(setKey, () => setKey(null));
  }, [appId]);

  const { run, busy } = useMutation(async (action: "create" | "reset" | "revoke") => {
    if (action === "revoke") {
      await callTrpc(() => trpc.appApiKeys.revoke.mutate({ app_id: appId }));
      setKey(null);
      setIssued(null);
      message.success(t("revoked"));
    } else {
      const next = await callTrpc(() =>
        action === "create" ? trpc.appApiKeys.create.mutate({ app_id: appId }) : trpc.appApiKeys.reset.mutate({ app_id: appId }),
      );
      setIssued(next);
      setKey(next);
    }
  });

  const shownKey = issued?.key ?? (key ? t("key_placeholder") : "");
  return (
    <Card
      className="console__card"
      title={
        <Space>
          <KeyOutlined />
          {t("title")}
        </Space>
      }
      data-testid="api-key-panel"
      style={{ marginTop: 16, maxWidth: 960 }}
    >
      <Typography.Paragraph type="secondary">{t("intro")}</Typography.Paragraph>
      {key === undefined ? null : key ? (
        <Descriptions size="small" column={1} bordered>
          <Descriptions.Item label={t("key")}>
            <Typography.Text code data-testid="api-key-hint">
              {key.key_hint}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t("rate")}>{t("rate_value", { count: key.rate_per_minute })}</Descriptions.Item>
          <Descriptions.Item label={t("created_at")}>
            <LocalDate iso={key.created_at} withTime />
          </Descriptions.Item>
          <Descriptions.Item label={t("last_used")}>{key.last_used_at ? <LocalDate iso={key.last_used_at} withTime /> : t("never")}</Descriptions.Item>
        </Descriptions>
      ) : (
        <Typography.Paragraph>{t("none")}</Typography.Paragraph>
      )}

      {issued ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginTop: 16 }}
          message={t("shown_once")}
          description={
            <Space direction="vertical" style={{ width: "100%" }}>
              <span>
                {t("key")}:{" "}
                <Typography.Text code copyable data-testid="api-key-full">
                  {issued.key}
                </Typography.Text>
              </span>
              <span>
                {t("secret")}:{" "}
                <Typography.Text code copyable data-testid="api-key-secret">
                  {issued.secret}
                </Typography.Text>
              </span>
            </Space>
          }
        />
      ) : null}

      <Space style={{ marginTop: 16 }} wrap>
        {key ? (
          <>
            <Popconfirm title={t("reset_confirm")} onConfirm={() => run("reset")}>
              <Button loading={busy} data-testid="api-key-reset">
                {t("reset")}
              </Button>
            </Popconfirm>
            <Popconfirm title={t("revoke_confirm")} onConfirm={() => run("revoke")}>
              <Button danger loading={busy} data-testid="api-key-revoke">
                {t("revoke")}
              </Button>
            </Popconfirm>
          </>
        ) : key === null ? (
          <Button type="primary" loading={busy} onClick={() => run("create")} data-testid="api-key-create">
            {t("create")}
          </Button>
        ) : null}
      </Space>

      {key && origin ? (
        <Tabs
          style={{ marginTop: 16 }}
          items={[
            {
              key: "curl",
              label: "curl",
              children: (
                <Typography.Paragraph copyable={{ text: buildCurlSnippet(origin, appId, shownKey) }}>
                  <pre style={SNIPPET_STYLE}>{buildCurlSnippet(origin, appId, shownKey)}</pre>
                </Typography.Paragraph>
              ),
            },
            {
              key: "openai",
              label: t("openai_tab"),
              children: (
                <Typography.Paragraph copyable={{ text: buildOpenAiSnippet(origin, appId, shownKey) }}>
                  <pre style={SNIPPET_STYLE}>{buildOpenAiSnippet(origin, appId, shownKey)}</pre>
                </Typography.Paragraph>
              ),
            },
          ]}
        />
      ) : null}
    </Card>
  );
}
