import { useCallback, useState } from 'react';

/** The rows whose switch waits for the server, so that each row spins on its own. */
export function usePendingIds() {
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());

  const whilePending = useCallback(async <R>(id: string, work: () => Promise<R>): Promise<R> => {
    setPending((ids) => new Set(ids).add(id));
    try {
      return await work();
    } finally {
      setPending((ids) => {
        const rest = new Set(ids);
        rest.delete(id);
        return rest;
      });
    }
  }, []);

  return { isPending: (id: string) => pending.has(id), whilePending };
}
