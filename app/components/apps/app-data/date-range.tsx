// A range of China-time days: quick presets (last 7, 30, 90 days) or two native date fields, which
// phones show with their own pickers.
import { Input, Segmented } from "antd";
import { useTranslation } from "react-i18next";
import { addDays, toChinaDay } from "../../../../server/apps/app-data.schema";

export type TDayRange = { from: string; to: string };
const PRESETS = [7, 30, 90] as const;

export function lastDays(n: number, today = toChinaDay(new Date())): TDayRange {
  return { from: addDays(today, -(n - 1)), to: today };
}

function presetOf(range: TDayRange) {
  const today = toChinaDay(new Date());
  return PRESETS.find((n) => range.to === today && range.from === addDays(today, -(n - 1)));
}

export function DateRange({ value, onChange, testId }: { value: TDayRange; onChange: (r: TDayRange) => void; testId: string }) {
  const { t } = useTranslation("appdata");
  const preset = presetOf(value);
  const set = (patch: Partial<TDayRange>) => {
    const next = { ...value, ...patch };
    if (next.from && next.to && next.from <= next.to) onChange(next);
  };
  return (
    <div className="appdata-range" data-testid={testId}>
      <Segmented<number | "custom">
        value={preset ?? "custom"}
        onChange={(v) => typeof v === "number" && onChange(lastDays(v))}
        options={[
          ...PRESETS.map((n) => ({ value: n, label: t("range.last_days", { count: n }) })),
          { value: "custom", label: t("range.custom"), disabled: true },
        ]}
      />
      <span className="appdata-range__fields">
        <Input
          type="date"
          value={value.from}
          max={value.to}
          onChange={(e) => set({ from: e.target.value })}
          aria-label={t("range.from")}
          data-testid={`${testId}-from`}
        />
        <span className="appdata-range__dash">–</span>
        <Input
          type="date"
          value={value.to}
          min={value.from}
          onChange={(e) => set({ to: e.target.value })}
          aria-label={t("range.to")}
          data-testid={`${testId}-to`}
        />
      </span>
    </div>
  );
}
