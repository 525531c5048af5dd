import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { intlLocale } from '../i18n.ts';

export type TChartSeries = { label: string; values: number[]; color: string };

/** Local midnight of a YYYY-MM-DD day, in seconds (uPlot's time scale). */
function dayStart(day: string): number {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year!, month! - 1, date!).getTime() / 1000;
}

/**
 * A line chart of daily values (uPlot): one x point per day, one line per series, a legend that
 * shows the hovered day's values formatted by `format` (money or counts in the operator's language).
 * Resizes with its container.
 */
export function DailyChart(props: {
  title: string;
  days: string[];
  series: TChartSeries[];
  format: (value: number) => string;
  /** The legend's name of the x value (the day). */
  dayLabel: string;
  /** Whole numbers only on the y axis (counts of players). */
  integer?: boolean;
  testId?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const { days, series, format, title, integer } = props;
  const dayName = props.dayLabel;

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const locale = intlLocale();
    const dayLabel = new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit' });
    const compact = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 });
    const height = 220;
    const plot = new uPlot(
      {
        width: Math.max(element.clientWidth, 200),
        height,
        fmtDate: () => (date: Date) => dayLabel.format(date),
        scales: { x: { time: true } },
        series: [
          {
            label: dayName,
            value: (_u, value) => (value == null ? '—' : dayLabel.format(new Date(value * 1000))),
          },
          ...series.map((line) => ({
            label: line.label,
            stroke: line.color,
            width: 2,
            points: { show: days.length <= 31, size: 5 },
            value: (_u: uPlot, value: number | null) => (value == null ? '—' : format(value)),
          })),
        ],
        axes: [
          { stroke: '#94a3b8', grid: { stroke: 'rgba(148,163,184,0.15)' } },
          {
            stroke: '#94a3b8',
            grid: { stroke: 'rgba(148,163,184,0.15)' },
            size: 56,
            ...(integer
              ? { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 100_000] }
              : {}),
            values: (_u, values) => values.map((value) => compact.format(value)),
          },
        ],
        legend: { live: true },
        cursor: { drag: { x: false, y: false } },
      },
      [days.map(dayStart), ...series.map((line) => line.values)],
      element,
    );
    const observer = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(element.clientWidth, 200), height }),
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [days, series, format, integer, dayName]);

  return (
    <figure className="card chart" data-testid={props.testId}>
      <figcaption className="chart__title">{title}</figcaption>
      <div ref={box} className="chart__plot" role="img" aria-label={title} />
    </figure>
  );
}
