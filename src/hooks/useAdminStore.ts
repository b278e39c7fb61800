import { useDispatch, useSelector } from '@umijs/max';
import { useMemo } from 'react';
import type { AdminModelState, EditAdminPayload } from '@/models/admin';
import type { Admin, CreateAdminBody, CreatedAdmin } from '#contract/admin';
import type { LoadingState } from '@/types/dva';

type RootState = { admin: AdminModelState } & LoadingState;

/**
 * The dva `admin` model, with each effect's answer typed. A refusal rejects (services/api.ts):
 * the caller catches it, or ends the chain with `alreadyShown`.
 */
export function useAdminStore() {
  const dispatch = useDispatch();
  // adminInfo mirrors initialState (see AdminModelState); it has no setter here.
  const { adminList, adminInfo } = useSelector((state: RootState) => state.admin);
  const loading = useSelector((state: RootState) => Boolean(state.loading.effects['admin/init']));

  const actions = useMemo(() => {
    // dva's promise middleware makes dispatching an effect return the effect's result; redux's
    // Dispatch type does not know that, hence the casts.
    const run = <R>(type: string, payload?: unknown) => dispatch({ type, payload }) as unknown as Promise<R>;
    return {
      init: () => run<void>('admin/init'),
      add: (admin: CreateAdminBody) => run<CreatedAdmin>('admin/add', admin),
      remove: (id: string) => run<void>('admin/delete', id),
      edit: (payload: EditAdminPayload) => run<Admin>('admin/edit', payload),
    };
  }, [dispatch]);

  return { adminList, adminInfo, loading, ...actions };
}
