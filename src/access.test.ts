import access from '@/access';
import type { Permission, WhoAmI } from '#contract/admin';
import { toInitialState } from '@/utils/session';

const adminWith = (permission: Permission): WhoAmI => ({
  _id: '65f1a2b3c4d5e6f708192a3b',
  loginId: 'someone',
  nickname: '某人',
  avatar: '',
  permission,
});

describe('access', () => {
  it('gives a super admin (permission 1) both super and normal rights', () => {
    expect(access(toInitialState(adminWith(1)))).toEqual({
      canSuperAdmin: true,
      canNormalAdmin: true,
    });
  });

  it('gives a normal admin (permission 2) normal rights only', () => {
    expect(access(toInitialState(adminWith(2)))).toEqual({
      canSuperAdmin: false,
      canNormalAdmin: true,
    });
  });

  it('gives no rights without an initial state', () => {
    expect(access(undefined)).toEqual({ canSuperAdmin: false, canNormalAdmin: false });
  });

  it('gives no rights to an initial state that holds no admin', () => {
    expect(access({})).toEqual({ canSuperAdmin: false, canNormalAdmin: false });
  });

  it('gives no rights for a permission value other than 1 or 2', () => {
    const odd = { adminInfo: { ...adminWith(2), permission: 3 as unknown as Permission } };
    expect(access(odd)).toEqual({ canSuperAdmin: false, canNormalAdmin: false });
  });
});
