// "My model keys" (the private key service): flagship and enterprise accounts add their own
// upstream keys, used for their requests before the platform's; other editions see which edition
// includes it.
import { Alert, Card } from "antd";
import { useTranslation } from "react-i18next";
import { ChannelManager } from "../models/channel-manager";
import type { TChannelRow } from "../models/models-api";
import "../models/models.css";

type TProps = { available: boolean; upgradeTo: string | null; channels: TChannelRow[]; models: Array<{ key: string; display_name: string }> };

export function ModelKeysCard({ available, upgradeTo, channels, models }: TProps) {
  const { t } = useTranslation("models");
  return (
    <Card title={t("own.title")} data-testid="model-keys-card">
      <p className="console__hint">{t("own.intro")}</p>
      {available ? (
        <ChannelManager scope="own" initial={channels} models={models} />
      ) : (
        <Alert
          type="info"
          showIcon
          message={t("own.upgrade", { edition: t(`editions.${upgradeTo ?? "flagship"}`, { ns: "common" }) })}
          data-testid="model-keys-upgrade"
        />
      )}
    </Card>
  );
}
