import { useDispatch, useSelector } from '@umijs/max';
import { useMemo } from 'react';
import type { RenameTypePayload, TypeModelState } from '@/models/type';
import type { TypeRecord } from '#contract/type';
import type { LoadingState } from '@/types/dva';

type RootState = { type: TypeModelState } & LoadingState;

/**
 * The dva `type` model, with each effect's answer typed. A refusal rejects (services/api.ts): the
 * caller catches it, or ends the chain with `alreadyShown`.
 */
export function useTypeStore() {
  const dispatch = useDispatch();
  const typeList = useSelector((state: RootState) => state.type.typeList);
  const loading = useSelector((state: RootState) => Boolean(state.loading.effects['type/init']));

  const actions = useMemo(() => {
    // dva's promise middleware makes dispatching an effect return the effect's result; redux's
    // Dispatch type does not know that, hence the casts.
    const run = <R>(type: string, payload?: unknown) => dispatch({ type, payload }) as unknown as Promise<R>;
    return {
      init: () => run<void>('type/init'),
      add: (typeName: string) => run<TypeRecord>('type/add', typeName),
      remove: (id: string) => run<void>('type/delete', id),
      rename: (payload: RenameTypePayload) => run<void>('type/edit', payload),
    };
  }, [dispatch]);

  return { typeList, loading, ...actions };
}
