// /modelProducer: platform administrators run the model channels. Channels are shown by
// priority tier in routing order, with their state and why a disabled one was taken out.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Alert } from "antd";
import { useTranslation } from "react-i18next";
import { requirePageRole } from "../../lib/auth.server";
import { ChannelManager } from "../../components/models/channel-manager";
import { listChannels } from "../../../server/models/channels.service";
import { listAllModels } from "../../../server/models/models.service";
import "../../components/models/models.css";

export const handle = { i18n: ["models"] };

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePageRole(request, "platform_admin");
  const [channels, models] = await Promise.all([listChannels(), listAllModels()]);
  return { channels, models: models.map((m) => ({ key: m.key, display_name: m.display_name })) };
}

export default function ModelProducer() {
  const { t } = useTranslation("models");
  const { channels, models } = useLoaderData<typeof loader>();
  return (
    <div className="console__page models__page models__page--wide" data-testid="model-producer">
      <h1 className="console__title">{t("channels.title")}</h1>
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t("channels.routing")} data-testid="channel-routing" />
      <ChannelManager scope="admin" initial={channels} models={models} />
    </div>
  );
}
