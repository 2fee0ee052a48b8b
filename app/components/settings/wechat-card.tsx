import { WechatOutlined } from "@ant-design/icons";
import { App, Button, Card, Space, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { apiRequest } from "../../lib/api-client";
import { useMutation } from "../../lib/use-mutation";

/** Binding WeChat lets the account log in by QR; unbinding needs another way to log in. */
export function WechatCard({ bound, enabled }: { bound: { nickname: string | null } | null; enabled: boolean }) {
  const { t } = useTranslation("auth");
  const { modal } = App.useApp();
  const { run: unbindNow } = useMutation(async () => {
    await apiRequest("/api/v1/account/wechat/unbind", { body: {} });
    window.location.reload();
  });
  const unbind = () => modal.confirm({ title: t("settings.wechat_unbind_confirm"), onOk: () => unbindNow() });
  return (
    <Card title={t("settings.wechat")} data-testid="wechat-card">
      <Space align="center" size={12}>
        <WechatOutlined style={{ fontSize: 28, color: bound ? "#07c160" : "#94a3b8" }} />
        <Typography.Text data-testid="wechat-state">
          {bound ? t("settings.wechat_bound", { name: bound.nickname ?? "" }) : t("settings.wechat_unbound")}
        </Typography.Text>
        {bound ? (
          <Button onClick={unbind} data-testid="wechat-unbind">
            {t("settings.wechat_unbind")}
          </Button>
        ) : enabled ? (
          <Button type="primary" href="/api/v1/auth/wechat/start?purpose=bind&go=1" data-testid="wechat-bind">
            {t("settings.wechat_bind")}
          </Button>
        ) : (
          <Typography.Text type="secondary">{t("settings.wechat_off")}</Typography.Text>
        )}
      </Space>
    </Card>
  );
}
