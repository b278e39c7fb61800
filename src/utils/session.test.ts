import { loginPathFrom, safeRedirect, toInitialState } from '@/utils/session';

describe('safeRedirect', () => {
  it.each(['/typeList', '/admin/adminList?x=1', '/issue/65f1a2b3c4d5e6f708192a3b'])('follows the same-origin path %s', (path) => {
    expect(safeRedirect(path)).toBe(path);
  });

  it.each([
    ['another origin', '//evil.example/x'],
    ['a backslash origin', '/\\evil.example'],
    ['an absolute URL', 'https://evil.example/'],
    ['a script URL', 'javascript:alert(1)'],
    ['a relative path', 'typeList'],
    ['the login page', '/login?redirect=/home'],
    ['nothing', null],
  ])('goes to / instead of %s', (_, raw) => {
    expect(safeRedirect(raw)).toBe('/');
  });
});

describe('loginPathFrom', () => {
  it('remembers the page the admin was on', () => {
    expect(loginPathFrom('/book/bookList?current=2')).toBe('/login?redirect=%2Fbook%2FbookList%3Fcurrent%3D2');
  });

  it('adds nothing for the root page', () => {
    expect(loginPathFrom('/')).toBe('/login');
  });
});

describe('toInitialState', () => {
  it('names the admin by nickname and falls back to the default avatar', () => {
    const state = toInitialState({
      _id: '65f1a2b3c4d5e6f708192a3b',
      loginId: 'root',
      nickname: '超级管理员',
      avatar: '',
      permission: 1,
    });
    expect(state).toEqual({
      name: '超级管理员',
      avatar: '/default-avatar.svg',
      adminInfo: {
        _id: '65f1a2b3c4d5e6f708192a3b',
        loginId: 'root',
        nickname: '超级管理员',
        avatar: '',
        permission: 1,
      },
    });
  });
});
