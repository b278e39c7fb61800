import type { Stats } from '#contract/stats';
import { api } from './api';

export function getStats(): Promise<Stats> {
  return api<Stats>('/api/stats');
}
