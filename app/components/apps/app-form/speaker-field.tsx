// The app form's announcer: a voice the enabled voice models offer now (voices.list), grouped by
// family, with the default voice first. An announcer the app keeps that no model offers now stays
// selectable (marked so), so saving the form does not change it behind the owner's back.
import { Select } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { callTrpc, trpc } from "../../../lib/trpc";
import { VOICE_FAMILIES, voiceLabelKey, type TVoiceList } from "../../../../server/media/voices";

const NONE: TVoiceList = { voices: [], default_voice: null };

export function SpeakerField({ value, onChange }: { value?: string; onChange?: (value: string) => void }) {
  const { t } = useTranslation("apps");
  const [list, setList] = useState<TVoiceList | null>(null);

  useEffect(() => {
    let live = true;
    callTrpc(() => trpc.voices.list.query()).then(
      (l) => live && setList(l),
      () => live && setList(NONE),
    );
    return () => {
      live = false;
    };
  }, []);

  const offered = list?.voices ?? [];
  const groups = VOICE_FAMILIES.map((family) => ({
    label: t(`voice_family.${family}`),
    options: offered.filter((v) => v.family === family).map((v) => ({ value: v.id, label: t(voiceLabelKey(v.id)) })),
  })).filter((g) => g.options.length > 0);
  const kept =
    list && value && !offered.some((v) => v.id === value) ? [{ value, label: t("form.speaker_unavailable", { voice: t(voiceLabelKey(value)) }) }] : [];
  const fallback = list?.default_voice ? `${t("form.speaker_default")} · ${t(voiceLabelKey(list.default_voice))}` : t("form.speaker_default");

  return (
    <Select
      value={value ?? ""}
      onChange={(v) => onChange?.(v)}
      options={[{ value: "", label: fallback }, ...kept, ...groups]}
      loading={!list}
      showSearch
      optionFilterProp="label"
      data-testid="app-speaker"
    />
  );
}
