import { CalendarOutlined, CrownOutlined, DesktopOutlined, HddOutlined, WalletOutlined } from "@ant-design/icons";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Alert } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ContactCard } from "../../components/site/contact-card";
import { EditionCards, EditionCompareTable } from "../../components/site/edition-plans";
import { MEMBERSHIP_DAYS } from "../../components/site/editions";
import { IconBadge, type TTone } from "../../components/site/icon-card";
import { pageMeta } from "../../components/site/page-meta";
import { AppLink } from "../../components/app-link";
import { EditionPurchase } from "../../components/editions/edition-purchase";
import { MembershipSummary } from "../../components/editions/membership-summary";
import { WalletTopup } from "../../components/editions/wallet-topup";
import { getSessionAccount } from "../../lib/auth.server";
import { getMembership } from "../../../server/money/editions/editions.service";
import { listProviders } from "../../../server/money/payments/providers";
import "../../styles/site-pages.css";

export const handle = { i18n: ["mobi", "site", "editions", "payments"] };

/** Signed in, the phone shows the membership and buys as /upgrade does; signed out, the editions. */
export async function loader({ request }: LoaderFunctionArgs) {
  const account = await getSessionAccount(request);
  if (!account) return { membership: null, providers: [] as string[] };
  return { membership: await getMembership(account.id), providers: listProviders() as string[] };
}

export const meta = pageMeta("Zelin · Editions");

const NOTES: { key: string; icon: ReactNode; tone: TTone }[] = [
  { key: "term", icon: <CalendarOutlined />, tone: "indigo" },
  { key: "prepaid", icon: <WalletOutlined />, tone: "emerald" },
  { key: "org", icon: <CrownOutlined />, tone: "amber" },
  { key: "private", icon: <HddOutlined />, tone: "slate" },
];

export default function MobiUpgrade() {
  const { t } = useTranslation("mobi");
  const { t: te } = useTranslation("editions");
  const { membership, providers } = useLoaderData<typeof loader>();
  const vars = { short: MEMBERSHIP_DAYS[0], long: MEMBERSHIP_DAYS[1] };
  return (
    <div className="sp-page mp" data-testid="mobi-upgrade">
      <section className="mp-hero">
        <span className="mp-hero__eyebrow">{t("upgrade.hero.eyebrow")}</span>
        <h1>{t("upgrade.hero.title")}</h1>
        <p>{t("upgrade.hero.lead")}</p>
      </section>

      {membership ? (
        <>
          <MembershipSummary membership={membership} extra={<WalletTopup />} />
          <section className="mp-card">
            <h2>{te("mobi.buy")}</h2>
            <EditionPurchase membership={membership} providers={providers} />
          </section>
        </>
      ) : (
        <>
          <Alert type="info" showIcon icon={<DesktopOutlined />} title={t("upgrade.pc.title")} description={t("upgrade.pc.desc")} />
          <AppLink to="/login?redirect=%2Fmobi%2Fupgrade" data-testid="mobi-upgrade-sign-in">
            {te("mobi.sign_in")}
          </AppLink>
          <EditionCards />
        </>
      )}

      <section className="mp-card">
        <h2>{t("upgrade.compare.title")}</h2>
        <p className="mp-card__lead">{t("upgrade.compare.lead")}</p>
        <EditionCompareTable />
      </section>

      <section className="mp-card">
        <h2>{t("upgrade.notes.title")}</h2>
        <ul className="mp-list">
          {NOTES.map((n) => (
            <li key={n.key}>
              <IconBadge icon={n.icon} tone={n.tone} small />
              <div>
                <b>{t(`upgrade.notes.items.${n.key}.title`)}</b>
                <span>{t(`upgrade.notes.items.${n.key}.desc`, vars)}</span>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <ContactCard title={t("upgrade.contact.title")} desc={t("upgrade.contact.desc")} />
    </div>
  );
}
