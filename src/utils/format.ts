import dayjs, { type Dayjs } from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezone);

/** The zone until whoami says the installation's (the server's TIME_ZONE default). */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';
let timeZone = DEFAULT_TIME_ZONE;

/** Every time on screen is the installation's, not the browser's: set from whoami. */
export function setTimeZone(zone: string | undefined): void {
  if (!zone) return;
  try {
    // A zone this browser does not know would throw on every date: keep the one there is.
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    timeZone = zone;
  } catch {
    // Kept: the previous zone.
  }
}

export function getTimeZone(): string {
  return timeZone;
}

const ZONE_NAMES: Record<string, string> = {
  'Asia/Shanghai': '北京时间',
  'Asia/Chongqing': '北京时间',
  'Asia/Hong_Kong': '香港时间',
  'Asia/Taipei': '台北时间',
  UTC: '协调世界时',
  'Etc/UTC': '协调世界时',
};

/** The zone as the screens name it, with its offset now: 「北京时间 UTC+8」, 「Europe/Berlin UTC+1」. */
export function timeZoneLabel(at: number = Date.now()): string {
  const minutes = dayjs(at).tz(timeZone).utcOffset();
  const sign = minutes < 0 ? '-' : '+';
  const h = Math.floor(Math.abs(minutes) / 60);
  const m = Math.abs(minutes) % 60;
  const offset = `UTC${sign}${h}${m ? `:${String(m).padStart(2, '0')}` : ''}`;
  return `${ZONE_NAMES[timeZone] ?? timeZone} ${offset}`;
}

/** The tooltip of every date column's header: which clock its times are on. */
export function timeZoneTooltip(): string {
  return `时间均为${timeZoneLabel()}`;
}

/** Every date on screen: `YYYY-MM-DD HH:mm:ss` in the installation's zone; `-` for a missing one. */
export function formatDate(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? '-' : dayjs(ms).tz(timeZone).format('YYYY-MM-DD HH:mm:ss');
}

/** A calendar day as picked (its year, month and day, whatever zone the picker's value is in). */
type Day = Dayjs | string;

/**
 * Whole days in the installation's zone, the last one included: from the start of the first day
 * to the last millisecond of the last, as epoch ms (what a list's `from` and `to` take).
 */
export function dayRange(first: Day, last: Day): { from: number; to: number } {
  const day = (value: Day) => (typeof value === 'string' ? value.slice(0, 10) : value.format('YYYY-MM-DD'));
  return {
    from: dayjs.tz(day(first), timeZone).startOf('day').valueOf(),
    to: dayjs.tz(day(last), timeZone).endOf('day').valueOf(),
  };
}

/** The installation's calendar day of an instant, as a day a picker shows (its date, at local midnight). */
export function zoneDay(at: number): Dayjs {
  return dayjs(dayjs(at).tz(timeZone).format('YYYY-MM-DD'));
}

/** The range pickers' presets: 今天, 近 7 天 and 近 30 天, today included, by the installation's calendar. */
export function dayRangePresets(now: number = Date.now()): Array<{ label: string; value: [Dayjs, Dayjs] }> {
  const today = zoneDay(now);
  return [
    { label: '今天', value: [today, today] },
    { label: '近 7 天', value: [today.subtract(6, 'day'), today] },
    { label: '近 30 天', value: [today.subtract(29, 'day'), today] },
  ];
}

/** Visible text of rich-editor HTML, without tags, cut to `max` characters with an ellipsis. */
export function plainExcerpt(html: string | null | undefined, max: number): string {
  // DOMParser runs no scripts; their text and that of styles is not visible, so it goes.
  const doc = new DOMParser().parseFromString(html ?? '', 'text/html');
  for (const node of doc.querySelectorAll('script, style, noscript, template')) node.remove();
  const text = (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** A title cut to `max` characters with an ellipsis. */
export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}
