import { GlobalOutlined } from "@ant-design/icons";
import { useRouteLoaderData } from "@remix-run/react";
import { Segmented, Select } from "antd";
import { useTranslation } from "react-i18next";
import { LANGUAGE_COOKIE, LANGUAGE_LABELS, LANGUAGES, type TLanguage } from "../../i18n/config";
import { UI_SIZE_COOKIE, UI_SIZES, writePreferenceCookie, type TUiSize } from "../../lib/ui-size";
import type { TRootData } from "../../root";

/** Language in the `lang` cookie for 365 days; the page reloads so every part renders in it. */
export function LanguageSwitcher({ compact = false }: { compact?: boolean }) {
  const data = useRouteLoaderData<TRootData>("root");
  const { t } = useTranslation();
  const change = (lng: TLanguage) => {
    writePreferenceCookie(LANGUAGE_COOKIE, lng);
    window.location.reload();
  };
  return (
    <Select
      aria-label={t("shell.language")}
      data-testid="language-switcher"
      value={data?.locale ?? "zh_hans"}
      onChange={change}
      variant="borderless"
      suffixIcon={<GlobalOutlined />}
      popupMatchSelectWidth={false}
      style={{ minWidth: compact ? 96 : 120 }}
      options={LANGUAGES.map((l) => ({ value: l, label: <span data-testid={`language-option-${l}`}>{LANGUAGE_LABELS[l]}</span> }))}
    />
  );
}

/** UI size, remembered per browser; medium by default. */
export function UiSizeSwitcher() {
  const data = useRouteLoaderData<TRootData>("root");
  const { t } = useTranslation();
  const change = (size: TUiSize) => {
    writePreferenceCookie(UI_SIZE_COOKIE, size);
    window.location.reload();
  };
  return (
    <Segmented
      size="small"
      aria-label={t("shell.ui_size.label")}
      data-testid="ui-size-switcher"
      value={data?.uiSize ?? "medium"}
      onChange={(v) => change(v as TUiSize)}
      options={UI_SIZES.map((s) => ({ value: s, label: t(`shell.ui_size.${s}`) }))}
    />
  );
}
