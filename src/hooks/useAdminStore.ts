import { useDispatch, useSelector } from '@umijs/max';
import { useMemo } from 'react';
import type { AdminModelState, EditAdminPayload } from '@/models/admin';
import type { Admin, CreateAdminBody, CreatedAdmin, WhoAmI } from '../../contract/admin';
import type { LoadingState } from '@/types/dva';

type RootState = { admin: AdminModelState } & LoadingState;

/** The dva `admin` model, with each effect's answer typed (see the model's note). */
export function useAdminStore() {
  const dispatch = useDispatch();
  const { adminList, adminInfo } = useSelector((state: RootState) => state.admin);
  const loading = useSelector((state: RootState) => Boolean(state.loading.effects['admin/init']));

  const actions = useMemo(() => {
    // dva's promise middleware makes dispatching an effect return the effect's result; redux's
    // Dispatch type does not know that, hence the casts.
    const run = <R>(type: string, payload?: unknown) =>
      dispatch({ type, payload }) as unknown as Promise<R>;
    return {
      init: () => run<boolean>('admin/init'),
      add: (admin: CreateAdminBody) => run<CreatedAdmin | null>('admin/add', admin),
      remove: (id: string) => run<boolean>('admin/delete', id),
      edit: (payload: EditAdminPayload) => run<Admin | null>('admin/edit', payload),
      setAdminInfo: (info: WhoAmI | null) => {
        dispatch({ type: 'admin/setAdminInfo', payload: info });
      },
    };
  }, [dispatch]);

  return { adminList, adminInfo, loading, ...actions };
}
