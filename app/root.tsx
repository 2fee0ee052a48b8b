import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useLoaderData, useRouteError, useRouteLoaderData } from "@remix-run/react";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useEffect, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { HTML_LANG } from "./i18n/config";
import { getRequestLanguage } from "./i18n/i18n.server";
import { readUiSize, type TUiSize } from "./lib/ui-size";
import { ShellProvider } from "./components/shell/shell-context";
import { ShellEffects } from "./components/shell/shell-effects";
import { RootErrorScreen, RootOverlays } from "./components/shell/root-overlays";
import { getShellSettings } from "./lib/shell-settings.server";
import { getSessionAccount } from "./lib/auth.server";
import { isSetupOpen } from "../server/platform/setup.service";
import { getT } from "../server/i18n/translate";
import { errorPageMeta } from "./components/site/page-meta";
import "./styles/global.css";
import "./styles/auth-console.css";

export const handle = { i18n: ["common", "errors"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const locale = getRequestLanguage(request);
  const account = await getSessionAccount(request);
  return {
    locale,
    uiSize: readUiSize(request.headers.get("cookie")),
    ...getShellSettings(),
    viewer: account ? { nickname: account.nickname, avatarUrl: account.avatarUrl } : null,
    setupOpen: await isSetupOpen().catch(() => false),
    notFoundTitle: getT(locale)("shell.errors.not_found_title"),
  };
}

// A page that answered 404 (the not-found route, or a loader's Not Found) is titled so in the reader's language.
export const meta: MetaFunction = (args) => errorPageMeta(args);

export type TRootData = Awaited<ReturnType<typeof loader>>;

const SIZE_CLASS: Record<TUiSize, string> = { small: "ui-small", medium: "ui-medium", large: "ui-large" };

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<TRootData>("root");
  const locale = data?.locale ?? "zh_hans";
  const uiSize = data?.uiSize ?? "medium";
  return (
    <html lang={HTML_LANG[locale]} data-lng={locale} data-build={data?.buildVersion ?? ""} className={SIZE_CLASS[uiSize]}>
      <head>
        <meta charSet="utf-8" />
        {/* In the head itself: a route's meta export replaces the root's, and phones must never lose this. */}
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
      </head>
      <body>
        {/* antd's ConfigProvider and App come from the layouts (components/shell/antd-shell.tsx):
            the H5 chat's lean layout has none, and so loads no antd (kept small for phones). */}
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function Root() {
  const data = useLoaderData<typeof loader>();
  const { i18n } = useTranslation();
  useEffect(() => {
    if (i18n.language !== data.locale) void i18n.changeLanguage(data.locale);
  }, [data.locale, i18n]);
  return (
    <ShellProvider settings={data}>
      <ShellEffects />
      <Outlet />
      <RootOverlays />
    </ShellProvider>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return <RootErrorScreen status={status} />;
}
