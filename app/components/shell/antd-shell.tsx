// antd's theme, locale, size and App context. Given by the layouts (and the root's overlays), not
// by the root itself, so a page on a lean layout (the H5 chat on phones) loads no antd at all.
import { useRouteLoaderData } from "@remix-run/react";
import { App as AntApp, ConfigProvider } from "antd";
import enUS from "antd/locale/en_US";
import ptBR from "antd/locale/pt_BR";
import zhCN from "antd/locale/zh_CN";
import zhTW from "antd/locale/zh_TW";
import type { ReactNode } from "react";
import type { TLanguage } from "../../i18n/config";
import { THEME } from "../../lib/theme";
import type { TRootData } from "../../root";

const ANTD_LOCALES: Record<TLanguage, typeof enUS> = { zh_hans: zhCN, zh_hant: zhTW, en: enUS, pt: ptBR };

export function AntdShell({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<TRootData>("root");
  const uiSize = data?.uiSize ?? "medium";
  return (
    <ConfigProvider locale={ANTD_LOCALES[data?.locale ?? "zh_hans"]} theme={THEME} componentSize={uiSize === "medium" ? "middle" : uiSize}>
      <AntApp>{children}</AntApp>
    </ConfigProvider>
  );
}
