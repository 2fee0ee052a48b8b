// /workspace: where signing in and signing up land. The getting-started checklist ticks itself off
// from the account's own data; beside it the balance and the places people go next.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireSessionAccount } from "../../lib/auth.server";
import { getWorkspaceOverview } from "../../../server/workspace/workspace.service";
import { GettingStarted } from "../../components/workspace/getting-started";
import { PhonePrompt } from "../../components/workspace/phone-prompt";
import { BalanceCard, QuickLinks } from "../../components/workspace/workspace-side";
import "../../components/workspace/workspace.css";

export const handle = { i18n: ["workspace", "auth"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  return { nickname: account.nickname, overview: await getWorkspaceOverview(account) };
}

export default function Workspace() {
  const { t } = useTranslation("workspace");
  const { nickname, overview } = useLoaderData<typeof loader>();
  return (
    <div className="console__page workspace" data-testid="workspace">
      <header className="workspace__head">
        <h1 className="console__title">{t("welcome", { name: nickname })}</h1>
        <p className="console__hint">{t("subtitle")}</p>
      </header>
      {!overview.phoneBound && <PhonePrompt />}
      <div className="workspace__grid">
        <GettingStarted steps={overview.steps} done={overview.done} />
        <div className="workspace__side">
          <BalanceCard balance={overview.balance} incomeMicro={overview.incomeMicro} />
          <QuickLinks />
        </div>
      </div>
    </div>
  );
}
