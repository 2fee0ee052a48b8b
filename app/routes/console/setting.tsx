import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Alert, Space } from "antd";
import { useTranslation } from "react-i18next";
import { getWechatBinding, isWechatLoginEnabled } from "../../../server/auth/wechat/wechat.service";
import { AppKeyCard } from "../../components/settings/app-key-card";
import { AvatarCard } from "../../components/settings/avatar-card";
import { CertificationCard } from "../../components/settings/certification-card";
import { EditionCard } from "../../components/settings/edition-card";
import { PasswordCard } from "../../components/settings/password-card";
import { ProfileCard } from "../../components/settings/profile-card";
import { PhoneCard } from "../../components/settings/phone-card";
import { WechatCard } from "../../components/settings/wechat-card";
import { ModelKeysCard } from "../../components/settings/model-keys-card";
import { StaffWithdrawCard } from "../../components/money/withdrawals/staff-withdraw-card";
import { getStaffWithdrawPolicy } from "../../../server/money/withdrawals/withdrawals.service";
import { getOwnChannelsPanel } from "../../../server/models/own-channels.service";
import { requireSessionAccount } from "../../lib/auth.server";
import { getEntitlements } from "../../../server/accounts/entitlements.service";
import { getAppKey } from "../../../server/accounts/settings.service";
import { getOwnCertification } from "../../../server/accounts/certification.service";
import { isStrictPasswordOn } from "../../../server/auth/auth.service";

export const handle = { i18n: ["auth", "models", "withdrawals"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  const [entitlements, appKey, wechat, certification, modelKeys] = await Promise.all([
    getEntitlements(account.id),
    getAppKey(account.id),
    getWechatBinding(account.id),
    getOwnCertification(account.id),
    getOwnChannelsPanel(account.id),
  ]);
  const staffWithdraw = await getStaffWithdrawPolicy(account);
  const url = new URL(request.url);
  return {
    account,
    entitlements,
    appKey,
    certification,
    modelKeys,
    staffWithdraw,
    strict: isStrictPasswordOn(),
    wechat: wechat ? { nickname: wechat.nickname } : null,
    wechatEnabled: isWechatLoginEnabled(),
    notice: url.searchParams.get("wechat_error") ?? (url.searchParams.get("wechat") === "bound" ? "bound" : null),
  };
}

export default function Settings() {
  const { t } = useTranslation("auth");
  const { account, entitlements, appKey, certification, modelKeys, staffWithdraw, strict, wechat, wechatEnabled, notice } = useLoaderData<typeof loader>();
  return (
    <div className="console__page" data-testid="settings">
      <h1 className="console__title">{t("settings.title")}</h1>
      {notice && (
        <Alert
          type={notice === "bound" ? "success" : "error"}
          showIcon
          style={{ marginBottom: 16 }}
          message={notice === "bound" ? t("settings.wechat_bound_notice") : t(notice, { ns: "errors" })}
          data-testid="settings-notice"
        />
      )}
      <Space direction="vertical" size={16} style={{ width: "100%" }}>
        <ProfileCard nickname={account.nickname} language={account.language} account={account.account} />
        <PhoneCard phone={account.phone} />
        <AvatarCard avatarUrl={account.avatarUrl} />
        <CertificationCard initial={certification} />
        <EditionCard edition={entitlements.edition} expiresAt={account.editionExpiresAt} limits={entitlements.limits} />
        <WechatCard bound={wechat} enabled={wechatEnabled} />
        <AppKeyCard initial={appKey} />
        <ModelKeysCard {...modelKeys} />
        {staffWithdraw && <StaffWithdrawCard enterprise={staffWithdraw.enterprise} initial={staffWithdraw.staff_may_withdraw} />}
        <PasswordCard strict={strict} />
      </Space>
    </div>
  );
}
