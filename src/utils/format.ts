import dayjs from 'dayjs';
import { DATE_TIME_FORMAT } from '@/constants';

/** Times travel as epoch milliseconds (CONTRACT.md); a missing one shows as a dash. */
export function formatDateTime(epochMs: number | null | undefined): string {
  if (epochMs === null || epochMs === undefined || !Number.isFinite(epochMs)) return '-';
  return dayjs(epochMs).format(DATE_TIME_FORMAT);
}
