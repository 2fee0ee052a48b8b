// While a fresh install has no platform administrator, the public home and the login page point the
// operator to /setup (the root loader says whether setup is open). Its words are in the common
// namespace, which every page has loaded.
import { useRouteLoaderData } from "@remix-run/react";
import { Alert } from "antd";
import { useTranslation } from "react-i18next";
import type { TRootData } from "../../root";
import { AppLink } from "../app-link";

export function SetupNotice({ banner = false }: { banner?: boolean }) {
  const { t } = useTranslation("common");
  const open = useRouteLoaderData<TRootData>("root")?.setupOpen;
  if (!open) return null;
  return (
    <Alert
      type="info"
      showIcon
      banner={banner}
      style={banner ? undefined : { marginBottom: 16 }}
      data-testid="setup-notice"
      message={
        <span>
          {t("setup_notice.text")} <AppLink to="/setup">{t("setup_notice.link")}</AppLink>
        </span>
      }
    />
  );
}
