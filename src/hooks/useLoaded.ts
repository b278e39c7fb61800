import { useCallback, useEffect, useState } from 'react';
import { describeRequestError } from '@/requestErrorConfig';

export type Loaded<T> = { status: 'loading' } | { status: 'failed'; error: string } | { status: 'ready'; value: T };

/**
 * Runs `load` on mount and whenever it changes (keep it stable with useCallback), and answers
 * where it stands. A failure keeps the server's message so that the page can say why it is empty;
 * the request layer has already shown it once as a toast. `update` edits the loaded value in place;
 * `reload` loads it again (a record changed elsewhere, e.g. restored from its history).
 */
export function useLoaded<T>(load: () => Promise<T>) {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `generation` is read only to load again when reload() moves it.
  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
    load().then(
      (value) => current && setState({ status: 'ready', value }),
      (error: unknown) => current && setState({ status: 'failed', error: describeRequestError(error) }),
    );
    return () => {
      current = false;
    };
  }, [load, generation]);

  const update = useCallback((change: (value: T) => T) => {
    setState((state) => (state.status === 'ready' ? { status: 'ready', value: change(state.value) } : state));
  }, []);

  const reload = useCallback(() => setGeneration((n) => n + 1), []);

  return [state, update, reload] as const;
}
