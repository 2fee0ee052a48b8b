import { App, Button, Card, Descriptions, Modal, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { apiRequest } from "../../lib/api-client";
import { useMutation } from "../../lib/use-mutation";

type TKey = { app_key: string; secret_hint: string } | null;

/** The API's key and secret: the secret is shown in full once, then only its hint. */
export function AppKeyCard({ initial }: { initial: TKey }) {
  const { t } = useTranslation("auth");
  const { modal } = App.useApp();
  const [key, setKey] = useState<TKey>(initial);
  const [revealed, setRevealed] = useState<{ app_key: string; app_secret: string } | null>(null);
  const { run: reset } = useMutation(async () => {
    const res = await apiRequest<{ app_key: string; app_secret: string; secret_hint: string }>("/api/v1/account/app_key/reset", { body: {} });
    setKey({ app_key: res.app_key, secret_hint: res.secret_hint });
    setRevealed(res);
  });
  const confirmReset = () =>
    key ? modal.confirm({ title: t("settings.app_key_reset_confirm"), content: t("settings.app_key_reset_body"), onOk: () => reset() }) : reset();
  return (
    <Card
      title={t("settings.app_key")}
      data-testid="app-key-card"
      extra={
        <Button onClick={confirmReset} data-testid="app-key-reset">
          {key ? t("settings.app_key_reset") : t("settings.app_key_create")}
        </Button>
      }
    >
      {key ? (
        <Descriptions column={1} size="small">
          <Descriptions.Item label="App Key">
            <Typography.Text copyable data-testid="app-key">
              {key.app_key}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label="App Secret">{key.secret_hint}</Descriptions.Item>
        </Descriptions>
      ) : (
        <p className="console__hint">{t("settings.app_key_none")}</p>
      )}
      <Modal
        open={Boolean(revealed)}
        onCancel={() => setRevealed(null)}
        onOk={() => setRevealed(null)}
        title={t("settings.app_key_once_title")}
        cancelButtonProps={{ style: { display: "none" } }}
      >
        <p>{t("settings.app_key_once_body")}</p>
        <Typography.Paragraph copyable code data-testid="app-secret">
          {revealed?.app_secret}
        </Typography.Paragraph>
      </Modal>
    </Card>
  );
}
