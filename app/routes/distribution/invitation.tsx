// /invitation: my invitation link (/registered?touser=<me>) with its QR code, and the rules: the
// invitee gets the experience bonus as gift credit; I get dividends on what they buy through my
// share links. Invitees are listed on /distribution.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Card } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { LinkQr } from "../../components/distribution/link-qr";
import { requireSessionAccount } from "../../lib/auth.server";
import { EXPERIENCE_BONUS_MICRO, PLATFORM_FEE_PERCENT, toYuan } from "../../../server/money/money.constants";
import "../../components/distribution/distribution.css";

export const handle = { i18n: ["distribution"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  return { path: `/registered?touser=${encodeURIComponent(account.id)}`, bonus: toYuan(EXPERIENCE_BONUS_MICRO), fee: PLATFORM_FEE_PERCENT };
}

export default function InvitationPage() {
  const { t } = useTranslation("distribution");
  const { path, bonus, fee } = useLoaderData<typeof loader>();
  return (
    <div className="console__page" data-testid="invitation-page">
      <h1 className="console__title">{t("invitation.title")}</h1>
      <p className="console__hint">{t("invitation.lead")}</p>
      <Card className="dist-section" title={t("invitation.link")}>
        <LinkQr path={path} name={t("invitation.file_name")} testId="invitation-link" qrSize={180} />
      </Card>
      <Card className="dist-section" title={t("invitation.rules_title")}>
        <ol className="dist-rules" data-testid="invitation-rules">
          <li>{t("invitation.rule_bonus", { bonus })}</li>
          <li>{t("invitation.rule_dividend", { fee })}</li>
          <li>{t("invitation.rule_edition")}</li>
          <li>{t("invitation.rule_withdraw")}</li>
        </ol>
        <AppLink to="/distribution">{t("invitation.to_distribution")}</AppLink>
      </Card>
    </div>
  );
}
