// The console's Administration group, for platform administrators only: every administration
// screen, next to each the number of things waiting there (reviews, withdrawals to pay), and their
// sum on the group's title. The counts come from one query, asked again on every page change (a
// decision made on one screen shows on the menu at once) and every minute.
import {
  ApiOutlined,
  AuditOutlined,
  CloudServerOutlined,
  FundProjectionScreenOutlined,
  MessageOutlined,
  PayCircleOutlined,
  ReconciliationOutlined,
  SafetyCertificateOutlined,
  ShoppingCartOutlined,
  StopOutlined,
  TagsOutlined,
  WalletOutlined,
} from "@ant-design/icons";
import { Badge } from "antd";
import { useEffect, useState, type ReactNode } from "react";
import type { TFunction } from "i18next";
import type { TAdminQueue } from "../../../server/platform/admin-queue.schema";
import { trpc } from "../../lib/trpc";

type TAdminScreen = { key: string; icon: ReactNode; label: string; waiting?: Exclude<keyof TAdminQueue, "total"> };

/** Every administration page of the route table (/admin/*, /modelProducer, /dev/sms). */
const ADMIN_SCREENS: TAdminScreen[] = [
  { key: "/admin/agent_review", icon: <AuditOutlined />, label: "admin.agent_review.menu", waiting: "agent_review" },
  { key: "/admin/app_review", icon: <AuditOutlined />, label: "admin.app_review.menu", waiting: "app_review" },
  { key: "/admin/certifications", icon: <SafetyCertificateOutlined />, label: "admin.certifications.menu", waiting: "certifications" },
  { key: "/admin/payments", icon: <PayCircleOutlined />, label: "payments:admin.menu" },
  { key: "/admin/withdrawals", icon: <WalletOutlined />, label: "common:money_menu.admin_withdrawals", waiting: "withdrawals" },
  { key: "/admin/purchases", icon: <ShoppingCartOutlined />, label: "purchases:admin.menu" },
  { key: "/admin/reconciliation", icon: <ReconciliationOutlined />, label: "metering:reconciliation.menu" },
  { key: "/modelProducer", icon: <ApiOutlined />, label: "admin.model_producer.menu" },
  { key: "/admin/app_categories", icon: <TagsOutlined />, label: "admin.app_categories.menu" },
  { key: "/admin/carousel", icon: <FundProjectionScreenOutlined />, label: "admin.carousel.menu" },
  { key: "/admin/sensitive_words", icon: <StopOutlined />, label: "content:admin.menu" },
  { key: "/admin/digital_instances", icon: <CloudServerOutlined />, label: "instances:admin.menu" },
];
/** Only while the development SMS provider is in use; otherwise the page is not found. */
const DEV_SMS_SCREEN: TAdminScreen = { key: "/dev/sms", icon: <MessageOutlined />, label: "admin_menu.dev_sms" };

const REFRESH_MS = 60_000;

function useAdminQueue(enabled: boolean, pathname: string) {
  const [queue, setQueue] = useState<TAdminQueue | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    const load = () =>
      trpc.platform.adminQueue.query().then(
        (q) => live && setQueue(q),
        // The menu works without its counts; the screens themselves show what waits.
        () => {},
      );
    void load();
    const timer = setInterval(load, REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [enabled, pathname]);
  return queue;
}

function withCount(text: string, count: number | undefined, testId: string, t: TFunction) {
  return (
    <span style={{ display: "inline-flex", alignItems: "center", justifyContent: "space-between", gap: 8, width: "100%" }}>
      <span style={{ overflow: "hidden", textOverflow: "ellipsis" }}>{text}</span>
      {count ? <Badge count={count} overflowCount={99} size="small" title={t("admin_menu.waiting", { count })} data-testid={testId} /> : null}
    </span>
  );
}

/** The menu group for platform administrators, or null for everyone else. */
export function useAdminMenuGroup(opts: { isPlatformAdmin: boolean; devSms: boolean; pathname: string; t: TFunction }) {
  const queue = useAdminQueue(opts.isPlatformAdmin, opts.pathname);
  if (!opts.isPlatformAdmin) return null;
  const { t } = opts;
  const screens = opts.devSms ? [...ADMIN_SCREENS, DEV_SMS_SCREEN] : ADMIN_SCREENS;
  return {
    type: "group" as const,
    key: "admin",
    label: withCount(t("admin_menu.group"), queue?.total, "admin-menu-total", t),
    children: screens.map((s) => ({
      key: s.key,
      icon: s.icon,
      label: withCount(t(s.label), s.waiting ? queue?.[s.waiting] : undefined, `admin-menu-count-${s.key.split("/").pop()}`, t),
    })),
  };
}
