// The console: every signed-in page shares this frame. Areas add their menu entries.
import {
  ApartmentOutlined,
  CommentOutlined,
  CrownOutlined,
  AppstoreOutlined,
  RiseOutlined,
  TransactionOutlined,
  WalletOutlined,
  ShopOutlined,
  MenuOutlined,
  PictureOutlined,
  FolderOpenOutlined,
  BgColorsOutlined,
  VideoCameraOutlined,
  AppstoreAddOutlined,
  ReadOutlined,
  ClusterOutlined,
  HistoryOutlined,
  LogoutOutlined,
  MessageOutlined,
  RobotOutlined,
  SettingOutlined,
  UserOutlined,
  ShareAltOutlined,
  TeamOutlined,
  VideoCameraAddOutlined,
  ExperimentOutlined,
  SoundOutlined,
} from "@ant-design/icons";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { Avatar, Button, Drawer, Dropdown, Layout, Menu, type MenuProps } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { requireSessionAccount } from "../../lib/auth.server";
import { apiRequest } from "../../lib/api-client";
import { AppLink, useAppNavigate, useIsMobi } from "../app-link";
import { LanguageSwitcher } from "../shell/preference-switchers";
import { BrandLogo } from "../ui/brand-logo";
import { AntdShell } from "../shell/antd-shell";
import { RechargeWalletButton } from "../money/recharge-wallet-button";
import { HomeOutlined } from "@ant-design/icons";
import { ShoppingOutlined } from "@ant-design/icons";
import { useAdminMenuGroup } from "./admin-menu";
import { isDevSmsActive } from "../../../server/auth/sms/dev-sms-provider";

export const handle = {
  i18n: ["auth", "metering", "payments", "purchases", "content", "generation", "figures", "digital", "voices", "instances", "workshops"],
};

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  const isPlatformAdmin = account.roles.includes("platform_admin");
  return {
    account: { nickname: account.nickname, avatarUrl: account.avatarUrl, account: account.account, edition: account.edition },
    isPlatformAdmin,
    devSms: isPlatformAdmin && isDevSmsActive(),
  };
}

type TMenuItem = NonNullable<MenuProps["items"]>[number];
type TMenuEntry = { key: string; icon: JSX.Element; label: string; children?: TMenuEntry[] };

const MENU: TMenuEntry[] = [
  { key: "/workspace", icon: <HomeOutlined />, label: "console.menu.workspace" },
  { key: "/creator", icon: <RobotOutlined />, label: "console.menu.creator" },
  { key: "/dialogue", icon: <MessageOutlined />, label: "console.menu.dialogue" },
  { key: "/history_qa", icon: <HistoryOutlined />, label: "console.menu.history_qa" },
  { key: "/train", icon: <ReadOutlined />, label: "console.menu.train" },
  { key: "/my_app", icon: <AppstoreOutlined />, label: "console.menu.my_app" },
  { key: "/workshopList", icon: <ApartmentOutlined />, label: "workshops:menu.list" },
  { key: "/create_bot", icon: <CommentOutlined />, label: "console.menu.create_bot" },
  { key: "/model", icon: <ClusterOutlined />, label: "console.menu.model" },
  {
    key: "media",
    icon: <PictureOutlined />,
    label: "generation:menu.group",
    children: [
      { key: "/multimedia", icon: <FolderOpenOutlined />, label: "console.menu.multimedia" },
      { key: "/drawing", icon: <BgColorsOutlined />, label: "generation:menu.drawing" },
      { key: "/video_generation", icon: <VideoCameraOutlined />, label: "generation:menu.video_generation" },
      { key: "/generations", icon: <AppstoreAddOutlined />, label: "generation:menu.generations" },
    ],
  },
  {
    key: "digital-humans",
    icon: <UserOutlined />,
    label: "figures:menu.group",
    children: [
      { key: "/digital", icon: <TeamOutlined />, label: "figures:menu.digital" },
      { key: "/CreateAppDigital", icon: <VideoCameraAddOutlined />, label: "digital:menu.editor" },
      { key: "/figureTrain", icon: <ExperimentOutlined />, label: "figures:menu.figure_train" },
      { key: "/speechtr", icon: <SoundOutlined />, label: "voices:menu.speechtr" },
    ],
  },
  { key: "/intelligent_store", icon: <ShopOutlined />, label: "console.menu.intelligent_store" },
  // The public market (its home with the app centre and agent market), outside the console.
  { key: "/index", icon: <ShoppingOutlined />, label: "console.menu.market" },
  { key: "/distribution", icon: <ShareAltOutlined />, label: "common:money_menu.distribution" },
  { key: "/income", icon: <RiseOutlined />, label: "common:money_menu.income" },
  { key: "/consumption", icon: <TransactionOutlined />, label: "common:money_menu.consumption" },
  { key: "/withdrawal", icon: <WalletOutlined />, label: "common:money_menu.withdrawal" },
  { key: "/upgrade", icon: <CrownOutlined />, label: "console.menu.upgrade" },
  { key: "/setting", icon: <SettingOutlined />, label: "console.menu.setting" },
];

/** Pages reached from a menu entry light up that entry. */
const MENU_PARENT: Record<string, string> = {
  "/my_bonus": "/distribution",
  "/my_redpacket": "/distribution",
  "/invitation": "/distribution",
  "/my_withdrawal": "/withdrawal",
  "/agentDetail": "/creator",
  "/agentSort": "/creator",
  "/updateLog": "/creator",
  "/upload": "/creator",
  "/CreatedatumList": "/multimedia",
  "/Createdigital": "/digital",
  "/CreateCharacter": "/digital",
  "/Createspeechtr": "/speechtr",
  "/Createvoice": "/speechtr",
  "/datumList": "/multimedia",
  "/warehouse": "/multimedia",
  "/create_normal_train": "/train",
  "/create_train": "/train",
  "/Createdatabases": "/train",
  "/database": "/train",
  "/create_app": "/my_app",
  "/create_api": "/my_app",
  "/del_app": "/my_app",
  "/createWork": "/workshopList",
  "/CreatedWorkshop": "/workshopList",
};

/** The menu groups holding a page's entry. */
function openGroupsOf(selected: string) {
  return MENU.filter((m) => m.children?.some((c) => c.key === selected)).map((m) => m.key);
}

async function logout() {
  await apiRequest("/api/v1/auth/logout", { method: "POST", body: {} }).catch(() => {});
  window.location.assign("/login");
}

/** antd's theme and App context for this layout's pages (not the root's: see antd-shell.tsx). */
export default function ConsoleLayout() {
  return (
    <AntdShell>
      <ConsoleLayoutFrame />
    </AntdShell>
  );
}

function ConsoleLayoutFrame() {
  const { t } = useTranslation("auth");
  const { account, isPlatformAdmin, devSms } = useLoaderData<typeof loader>();
  const { pathname } = useLocation();
  // Administrators' screens are a group of their own, with counts of what waits (admin-menu.tsx).
  const adminGroup = useAdminMenuGroup({ isPlatformAdmin, devSms, pathname, t });
  const navigate = useAppNavigate();
  const mobi = useIsMobi();
  const path = pathname.replace(/^\/mobi/, "") || "/";
  const selected = MENU_PARENT[path] ?? path;
  const [drawerOpen, setDrawerOpen] = useState(false);
  useEffect(() => setDrawerOpen(false), [pathname]);
  const toItem = (m: TMenuEntry): TMenuItem =>
    m.children ? { key: m.key, icon: m.icon, label: t(m.label), children: m.children.map(toItem) } : { key: m.key, icon: m.icon, label: t(m.label) };
  const menuItems = [...MENU.map(toItem), ...(adminGroup ? [adminGroup] : [])];
  // A group opens by itself when one of its pages is shown; the user may open or close others.
  const [openKeys, setOpenKeys] = useState<string[]>(() => openGroupsOf(selected));
  useEffect(() => setOpenKeys((keys) => [...new Set([...keys, ...openGroupsOf(selected)])]), [selected]);
  const userMenu = {
    items: [{ key: "logout", icon: <LogoutOutlined />, label: <span data-testid="logout">{t("console.logout")}</span> }],
    onClick: ({ key }: { key: string }) => key === "logout" && void logout(),
  };
  return (
    <Layout className={`console${mobi ? " console--phone" : ""}`}>
      <Layout.Header className="console__header">
        <div className="console__brand">
          {/* Narrow screens (and /mobi) fold the side menu into a drawer. */}
          <Button
            type="text"
            className="console__menu-button"
            icon={<MenuOutlined />}
            aria-label={t("console.menu_open")}
            data-testid="console-menu-button"
            onClick={() => setDrawerOpen(true)}
          />
          <AppLink to="/" aria-label={t("brand.name", { ns: "common" })}>
            <BrandLogo size={28} />
          </AppLink>
        </div>
        <div className="console__tools">
          <RechargeWalletButton compact={mobi} />
          <LanguageSwitcher compact />
          <Dropdown menu={userMenu} trigger={["click"]}>
            <Button type="text" data-testid="account-menu" icon={<Avatar size="small" src={account.avatarUrl ?? undefined} icon={<UserOutlined />} />}>
              {!mobi && <span className="console__nickname">{account.nickname}</span>}
            </Button>
          </Dropdown>
        </div>
      </Layout.Header>
      <Layout>
        {!mobi && (
          <Layout.Sider width={220} theme="light" className="console__sider">
            <Menu
              mode="inline"
              selectedKeys={[selected]}
              openKeys={openKeys}
              onOpenChange={setOpenKeys}
              items={menuItems}
              onClick={({ key }) => navigate(key)}
            />
          </Layout.Sider>
        )}
        <Drawer
          placement="left"
          size={260}
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          styles={{ body: { padding: 0 } }}
          title={t("brand.name", { ns: "common" })}
        >
          <Menu
            mode="inline"
            selectedKeys={[selected]}
            openKeys={openKeys}
            onOpenChange={setOpenKeys}
            items={menuItems}
            onClick={({ key }) => navigate(key)}
            data-testid="console-drawer-menu"
          />
        </Drawer>
        <Layout.Content className="console__content">
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
