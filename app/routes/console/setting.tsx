import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Space } from "antd";
import { useTranslation } from "react-i18next";
import { AppKeyCard } from "../../components/settings/app-key-card";
import { EditionCard } from "../../components/settings/edition-card";
import { PasswordCard } from "../../components/settings/password-card";
import { ProfileCard } from "../../components/settings/profile-card";
import { requireSessionAccount } from "../../lib/auth.server";
import { getEntitlements } from "../../../server/accounts/entitlements.service";
import { getAppKey } from "../../../server/accounts/settings.service";
import { isStrictPasswordOn } from "../../../server/auth/auth.service";

export const handle = { i18n: ["auth"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  const [entitlements, appKey] = await Promise.all([getEntitlements(account.id), getAppKey(account.id)]);
  return { account, entitlements, appKey, strict: isStrictPasswordOn() };
}

export default function Settings() {
  const { t } = useTranslation("auth");
  const { account, entitlements, appKey, strict } = useLoaderData<typeof loader>();
  return (
    <div className="console__page" data-testid="settings">
      <h1 className="console__title">{t("settings.title")}</h1>
      <Space direction="vertical" size={16} style={{ width: "100%" }}>
        <ProfileCard nickname={account.nickname} language={account.language} account={account.account} />
        <EditionCard edition={entitlements.edition} expiresAt={account.editionExpiresAt} limits={entitlements.limits} />
        <AppKeyCard initial={appKey} />
        <PasswordCard strict={strict} />
      </Space>
    </div>
  );
}
