import type { Effect } from '@umijs/max';

/** dva's `{ call, put, select, ... }`, as the dva plugin types it. */
export type EffectsCommandMap = Parameters<Effect>[1];

export interface PayloadAction<P> {
  type: string;
  payload: P;
}

/** The part of the store that dva-loading adds beside the models. */
export interface LoadingState {
  loading: { effects: Record<string, boolean | undefined> };
}
