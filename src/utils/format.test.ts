import { dayRange, dayRangePresets, formatDate, getTimeZone, setTimeZone, timeZoneLabel } from '@/utils/format';

// 2026-11-26 17:30 UTC: already the 27th in Beijing, still the 26th in UTC.
const LATE = Date.UTC(2026, 10, 26, 17, 30, 5);

afterEach(() => setTimeZone('Asia/Shanghai'));

describe('times in the installation time zone', () => {
  it('formats every date in the zone whoami names, not the browser’s', () => {
    expect(getTimeZone()).toBe('Asia/Shanghai');
    expect(formatDate(LATE)).toBe('2026-11-27 01:30:05');
    setTimeZone('UTC');
    expect(formatDate(LATE)).toBe('2026-11-26 17:30:05');
    setTimeZone('America/New_York');
    expect(formatDate(LATE)).toBe('2026-11-26 12:30:05');
    expect(formatDate(null)).toBe('-');
  });

  it('keeps the zone it has when told one the browser does not know', () => {
    setTimeZone('Mars/Olympus');
    expect(getTimeZone()).toBe('Asia/Shanghai');
    setTimeZone(undefined);
    expect(getTimeZone()).toBe('Asia/Shanghai');
  });

  it('names the zone with its offset', () => {
    expect(timeZoneLabel(LATE)).toBe('北京时间 UTC+8');
    setTimeZone('Asia/Kolkata');
    expect(timeZoneLabel(LATE)).toBe('Asia/Kolkata UTC+5:30');
    setTimeZone('America/New_York');
    expect(timeZoneLabel(Date.UTC(2026, 6, 1))).toBe('America/New_York UTC-4');
  });

  it('a day range is whole days of the zone, the last included', () => {
    expect(dayRange('2026-11-27', '2026-11-28')).toEqual({
      from: Date.UTC(2026, 10, 26, 16),
      to: Date.UTC(2026, 10, 28, 16) - 1,
    });
    setTimeZone('UTC');
    expect(dayRange('2026-11-27', '2026-11-27')).toEqual({ from: Date.UTC(2026, 10, 27), to: Date.UTC(2026, 10, 28) - 1 });
  });

  it('presets count days by the zone’s calendar: 今天 is the 27th in Beijing while UTC is on the 26th', () => {
    const [today, week, month] = dayRangePresets(LATE);
    expect(today.label).toBe('今天');
    expect(today.value.map((d) => d.format('YYYY-MM-DD'))).toEqual(['2026-11-27', '2026-11-27']);
    expect(week.label).toBe('近 7 天');
    expect(week.value.map((d) => d.format('YYYY-MM-DD'))).toEqual(['2026-11-21', '2026-11-27']);
    expect(month.label).toBe('近 30 天');
    expect(month.value[0].format('YYYY-MM-DD')).toBe('2026-10-29');
    setTimeZone('UTC');
    expect(dayRangePresets(LATE)[0].value[0].format('YYYY-MM-DD')).toBe('2026-11-26');
  });
});
