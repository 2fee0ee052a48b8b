// A bar per day in plain SVG (antd has no charts, and one series of bars needs no library). It scales
// to its box through the viewBox; each bar has its value as a tooltip and a data attribute.
import type { TAppDayRow } from "../../../../server/apps/app-data.schema";

export type TMetric = "users" | "dialogues" | "messages";
type TProps = { days: TAppDayRow[]; metric: TMetric; label: string; emptyText: string };

const W = 720;
const H = 220;
const PAD = { top: 16, right: 8, bottom: 28, left: 36 };

/** A round number at or above the largest value, so the axis reads 0 … 5, 10, 50, 100 … */
export function niceMax(n: number) {
  if (n <= 5) return 5;
  const step = 10 ** Math.floor(Math.log10(n));
  return Math.ceil(n / step) * step;
}

export function DayBars({ days, metric, label, emptyText }: TProps) {
  const values = days.map((d) => d[metric]);
  const max = niceMax(Math.max(0, ...values));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(days.length, 1);
  const barW = Math.max(2, Math.min(36, slot * 0.7));
  // About eight date labels whatever the range.
  const every = Math.max(1, Math.ceil(days.length / 8));
  const empty = values.every((v) => v === 0);
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="appdata-bars" role="img" aria-label={label} data-testid="appdata-chart" data-metric={metric}>
      {[0, 0.5, 1].map((f) => {
        const y = PAD.top + innerH * (1 - f);
        return (
          <g key={f}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y} y2={y} className="appdata-bars__grid" />
            <text x={PAD.left - 6} y={y + 4} textAnchor="end" className="appdata-bars__axis">
              {Math.round(max * f)}
            </text>
          </g>
        );
      })}
      {days.map((d, i) => {
        const v = d[metric];
        const h = (v / max) * innerH;
        const x = PAD.left + slot * i + (slot - barW) / 2;
        return (
          <g key={d.day}>
            <rect
              x={x}
              y={PAD.top + innerH - h}
              width={barW}
              height={Math.max(h, 0)}
              rx={Math.min(3, barW / 3)}
              className="appdata-bars__bar"
              data-testid="appdata-bar"
              data-day={d.day}
              data-value={v}
            >
              <title>{`${d.day}: ${v}`}</title>
            </rect>
            {i % every === 0 && (
              <text x={x + barW / 2} y={H - 8} textAnchor="middle" className="appdata-bars__axis">
                {d.day.slice(5)}
              </text>
            )}
          </g>
        );
      })}
      {empty && (
        <text x={W / 2} y={PAD.top + innerH / 2} textAnchor="middle" className="appdata-bars__empty">
          {emptyText}
        </text>
      )}
    </svg>
  );
}
