/** Calendar days of a time zone: the commission period key 'YYYY-MM-DD' and its bounds as UTC instants. */

function wallClock(instant: Date, timeZone: string): number[] {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return [get('year'), get('month'), get('day'), get('hour'), get('minute'), get('second')];
}

export function localDay(instant: Date, timeZone: string): string {
  const [y, m, d] = wallClock(instant, timeZone);
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** The UTC instant of local midnight (two passes settle the offset near daylight-saving changes). */
function midnight(y: number, m: number, d: number, timeZone: string): Date {
  const wall = Date.UTC(y, m - 1, d);
  const offset = (at: number) => {
    const [yy, mm, dd, h, mi, s] = wallClock(new Date(at), timeZone) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    return Date.UTC(yy, mm - 1, dd, h, mi, s) - Math.floor(at / 1000) * 1000;
  };
  let instant = wall - offset(wall);
  instant = wall - offset(instant);
  return new Date(instant);
}

export function dayBounds(day: string, timeZone: string): { start: Date; end: Date } {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return { start: midnight(y, m, d, timeZone), end: midnight(y, m, d + 1, timeZone) };
}

export function addDays(day: string, offset: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + offset)).toISOString().slice(0, 10);
}
