// /speechtr: voices. My own voices with their states (checked, training, ready, or failed with what
// to do), the personal voice package, the buttons that record a personal voice or make a custom
// one, and the platform's announcers. Voices on their way are followed until they settle.
import { AudioOutlined, SoundOutlined } from "@ant-design/icons";
import { Alert, App, Button, Empty, Skeleton } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../lib/api-client";
import { useMutation } from "../../lib/use-mutation";
import { AppLink } from "../../components/app-link";
import { RenameModal } from "../../components/rename-modal";
import { StockVoices } from "../../components/voices/stock-voices";
import { VoiceCard } from "../../components/voices/voice-card";
import { VoicePackageBox } from "../../components/voices/voice-package-box";
import { useVoicesOverview, voicesApi, type TDigitalVoice } from "../../components/voices/voices-client";
import { VOICE_NAME_MAX } from "../../../server/digital/digital.schema";
import { ZVoiceName } from "../../../server/digital/voices.schema";
import "../../components/voices/voices.css";

export const handle = { i18n: ["voices", "apps"] };

function useVoiceActions(reload: () => Promise<void>) {
  const { t } = useTranslation("voices");
  const { modal, message } = App.useApp();
  const [renaming, setRenaming] = useState<TDigitalVoice | null>(null);
  const act = useMutation(async (_id: string, run: () => Promise<void>) => run());
  const actions = {
    busyId: act.busyKey,
    onRename: setRenaming,
    onRetry: (voice: TDigitalVoice) =>
      void act.run(voice.id, async () => {
        await voicesApi.retry(voice.id);
        await reload();
      }),
    onRemove: (voice: TDigitalVoice) =>
      modal.confirm({
        title: t("remove_title", { name: voice.name }),
        content: t("remove_confirm"),
        okText: t("actions.remove"),
        cancelText: t("actions.cancel"),
        okButtonProps: { danger: true, "data-testid": "voice-remove-ok" } as never,
        onOk: () =>
          act.run(voice.id, async () => {
            await voicesApi.remove(voice.id);
            void message.success(t("removed"));
            await reload();
          }),
      }),
  };
  return { actions, renaming, setRenaming };
}

export default function SpeechtrPage() {
  const { t } = useTranslation("voices");
  const { list, packages, loadError, reload } = useVoicesOverview();
  const { actions, renaming, setRenaming } = useVoiceActions(reload);
  return (
    <div className="voices-page" data-testid="speechtr-page">
      <h1 className="console__title">{t("title.speechtr")}</h1>
      <p className="console__hint">{t("intro.speechtr")}</p>
      <div className="voices-page__top">
        <div className="voices-page__create">
          <AppLink to="/Createspeechtr">
            <Button type="primary" icon={<AudioOutlined />} data-testid="voice-new-personal">
              {t("actions.record_personal")}
            </Button>
          </AppLink>
          <AppLink to="/Createvoice">
            <Button icon={<SoundOutlined />} data-testid="voice-new-custom">
              {t("actions.make_custom")}
            </Button>
          </AppLink>
        </div>
        <VoicePackageBox packages={packages} onBought={() => void reload()} />
      </div>
      {loadError !== null && <Alert type="error" showIcon message={errorText(loadError, t("load_failed"))} />}
      <h2 className="voices-page__section">{t("mine.title")}</h2>
      {!list ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : list.mine.length === 0 ? (
        <Empty description={t("mine.empty")} data-testid="voice-mine-empty" />
      ) : (
        <div className="voice-list" data-testid="voice-list">
          {list.mine.map((v) => (
            <VoiceCard key={v.id} voice={v} actions={actions} />
          ))}
        </div>
      )}
      <h2 className="voices-page__section">{t("stock.title")}</h2>
      {list ? <StockVoices voices={list.stock} /> : <Skeleton active paragraph={{ rows: 2 }} />}
      <RenameModal
        item={renaming}
        rule={ZVoiceName}
        maxLength={VOICE_NAME_MAX}
        ns="voices"
        labelKey="form.name"
        testId="voice-rename"
        onRename={async (id, name) => {
          await voicesApi.rename(id, name);
          setRenaming(null);
          void reload();
        }}
        onClose={() => setRenaming(null)}
      />
    </div>
  );
}
