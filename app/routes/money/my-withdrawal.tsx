// /my_withdrawal: my withdrawals, newest first, with their states (submitted, arrived, abnormal with
// the administrator's note) and "load more".
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Button, Card, Empty, Segmented, Space } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { WithdrawalCard } from "../../components/money/withdrawals/withdrawal-card";
import { apiRequest } from "../../lib/api-client";
import { requireSessionAccount } from "../../lib/auth.server";
import { useMutation } from "../../lib/use-mutation";
import { listMyWithdrawals } from "../../../server/money/withdrawals/withdrawals.service";
import { WITHDRAWAL_STATES, type TWithdrawalPage, type TWithdrawalState, type TWithdrawalView } from "../../../server/money/withdrawals/withdrawals.schema";
import "../../components/money/withdrawals/withdrawals.css";

export const handle = { i18n: ["withdrawals"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireSessionAccount(request);
  return { initial: await listMyWithdrawals(account, {}) };
}

export default function MyWithdrawalPage() {
  const { t } = useTranslation("withdrawals");
  const { initial } = useLoaderData<typeof loader>();
  const [state, setState] = useState<TWithdrawalState | "all">("all");
  const [page, setPage] = useState<TWithdrawalPage<TWithdrawalView>>(initial);
  const first = useRef(true);

  const { run: load, busy: loading } = useMutation(async (s: TWithdrawalState | "all", cursor: string | null) => {
    const q = new URLSearchParams();
    if (s !== "all") q.set("state", s);
    if (cursor) q.set("cursor", cursor);
    const next = await apiRequest<TWithdrawalPage<TWithdrawalView>>(`/api/v1/withdrawal/mine?${q}`);
    setPage((old) => (cursor ? { items: [...old.items, ...next.items], next_cursor: next.next_cursor } : next));
  });

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    void load(state, null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state]);

  return (
    <div className="console__page" data-testid="my-withdrawal-page">
      <Space align="baseline" wrap style={{ justifyContent: "space-between", width: "100%" }}>
        <h1 className="console__title">{t("mine.title")}</h1>
        <AppLink to="/withdrawal">
          <Button type="primary" data-testid="my-withdrawal-new">
            {t("mine.new")}
          </Button>
        </AppLink>
      </Space>
      <div className="wd-toolbar">
        <Segmented<TWithdrawalState | "all">
          value={state}
          onChange={setState}
          options={[{ value: "all", label: t("mine.all") }, ...WITHDRAWAL_STATES.map((s) => ({ value: s, label: t(`states.${s}`) }))]}
        />
      </div>
      <div className="wd-list">
        {page.items.length === 0 ? (
          <Card>
            <Empty description={t("mine.empty")} data-testid="my-withdrawal-empty" />
          </Card>
        ) : (
          page.items.map((item) => <WithdrawalCard key={item.id} item={item} />)
        )}
        {page.next_cursor && (
          <Button onClick={() => void load(state, page.next_cursor)} loading={loading}>
            {t("mine.more")}
          </Button>
        )}
      </div>
    </div>
  );
}
