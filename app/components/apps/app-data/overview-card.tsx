// The app's numbers over a range of days: totals (people, dialogues, messages, likes, dislikes) and
// a bar per day of the metric picked.
import { DislikeOutlined, LikeOutlined } from "@ant-design/icons";
import { Card, Segmented, Spin, Statistic } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { callTrpc, trpc } from "../../../lib/trpc";
import { useMutation } from "../../../lib/use-mutation";
import type { TAppOverview } from "../../../../server/apps/app-data.schema";
import { DateRange, type TDayRange } from "./date-range";
import { DayBars, type TMetric } from "./day-bars";

export function OverviewCard({ appId, initial, initialRange }: { appId: string; initial: TAppOverview; initialRange: TDayRange }) {
  const { t } = useTranslation("appdata");
  const [range, setRange] = useState(initialRange);
  const [data, setData] = useState(initial);
  const [metric, setMetric] = useState<TMetric>("users");
  const { run: fetchOverview, busy: loading } = useMutation(async (next: TDayRange) =>
    setData(await callTrpc(() => trpc.appData.overview.query({ appId, range: next }))),
  );

  const load = (next: TDayRange) => {
    setRange(next);
    return fetchOverview(next);
  };

  const stats = [
    { key: "users", value: data.totals.users },
    { key: "dialogues", value: data.totals.dialogues },
    { key: "messages", value: data.totals.messages },
    { key: "liked", value: data.totals.liked, icon: <LikeOutlined /> },
    { key: "disliked", value: data.totals.disliked, icon: <DislikeOutlined /> },
  ];

  return (
    <Card title={t("overview.title")} extra={<DateRange value={range} onChange={(r) => void load(r)} testId="appdata-range" />} className="appdata-card">
      <Spin spinning={loading}>
        <div className="appdata-stats">
          {stats.map((s) => (
            <div key={s.key} className="appdata-stat" data-testid={`appdata-total-${s.key}`} data-value={s.value}>
              <Statistic title={t(`metrics.${s.key}`)} value={s.value} prefix={s.icon} />
            </div>
          ))}
        </div>
        <Segmented<TMetric>
          value={metric}
          onChange={setMetric}
          options={(["users", "dialogues", "messages"] as const).map((m) => ({ value: m, label: t(`metrics.${m}_per_day`) }))}
          className="appdata-metric"
        />
        <DayBars days={data.days} metric={metric} label={t(`metrics.${metric}_per_day`)} emptyText={t("overview.empty")} />
      </Spin>
    </Card>
  );
}
