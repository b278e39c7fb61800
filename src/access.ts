import type { InitialState } from '@/utils/session';

export interface AccessFlags {
  canSuperAdmin: boolean;
  canNormalAdmin: boolean;
}

/** docs/requirements.md, roles: permission 1 is SuperAdmin; 1 and 2 are NormalAdmin; no admin, no rights. */
export default function access(initialState: InitialState | undefined): AccessFlags {
  const permission = initialState?.adminInfo?.permission;
  return {
    canSuperAdmin: permission === 1,
    canNormalAdmin: permission === 1 || permission === 2,
  };
}
