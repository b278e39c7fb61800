// Umi's runtime first (as the app loads it): the request layer's modules then load in the app's order.
import { request } from '@umijs/max';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import ConflictDialog from '@/components/ConflictDialog';
import { proofLasts, ReauthDialog } from '@/components/ReauthDialog';
import { reauthInterceptor } from '@/requestErrorConfig';
import { envelope, installFakeNetwork, refusal } from '@/testing/fakeNetwork';
import { setReauthAsker } from '@/utils/trustGate';
import { passkeyProof } from '@/services/passkey';

// With jest.mock in a file, Umi's transformer runs Babel's module transform before the types are
// stripped: an imported name used as a type breaks that, so the type comes inline.
type VersionConflict = import('#contract/version').VersionConflict;

// The browser's WebAuthn prompt has no stand-in in jsdom: the passkey's answer is given.
jest.mock('@/services/passkey', () => ({ passkeyProof: jest.fn() }));

const conflict: VersionConflict = {
  yourVersion: 1,
  currentVersion: 2,
  changes: [{ field: 'nickname', before: '甲', after: '乙', by: 'editor', at: Date.UTC(2026, 0, 2, 3, 4, 5) }],
  current: { nickname: '乙', version: 2 },
};

describe('ConflictDialog', () => {
  it('shows their change beside mine and offers 重新载入 and 仍然保存', () => {
    const onReload = jest.fn();
    const onOverwrite = jest.fn();
    render(
      <ConflictDialog conflict={conflict} mine={{ nickname: '丙' }} onReload={onReload} onOverwrite={onOverwrite} onCancel={jest.fn()} />,
    );
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText('记录已被其他管理员修改')).toBeTruthy();
    expect(within(dialog).getByText('昵称')).toBeTruthy();
    expect(within(dialog).getByText('乙')).toBeTruthy();
    expect(within(dialog).getByText('丙')).toBeTruthy();
    expect(within(dialog).getByText(/^editor（/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: '重新载入' }));
    expect(onReload).toHaveBeenCalledTimes(1);
    fireEvent.click(within(dialog).getByRole('button', { name: '仍然保存' }));
    expect(onOverwrite).toHaveBeenCalledTimes(1);
  });

  it('is closed without a conflict', () => {
    render(<ConflictDialog conflict={undefined} mine={{}} onReload={jest.fn()} onOverwrite={jest.fn()} onCancel={jest.fn()} />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('ReauthDialog', () => {
  it('says how long the proof lasts with the window the refusal gave, and names no time when none was given', () => {
    const { unmount } = render(<ReauthDialog open windowSeconds={600} onProved={jest.fn()} onCancel={jest.fn()} />);
    expect(screen.getByText(/验证后 10 分钟内无需再次验证。/)).toBeTruthy();
    unmount();
    render(<ReauthDialog open windowSeconds={90} onProved={jest.fn()} onCancel={jest.fn()} />);
    expect(screen.getByText(/验证后 90 秒内无需再次验证。/)).toBeTruthy();
    expect(proofLasts(undefined)).toBe('');
  });

  it('sends the password to /api/admin/me/reauth and reports the proof', async () => {
    const sent = installFakeNetwork(() => ({ status: 200, body: envelope({ validUntil: Date.now() + 900_000 }) }));
    const onProved = jest.fn();
    render(<ReauthDialog open onProved={onProved} onCancel={jest.fn()} />);
    fireEvent.change(screen.getByLabelText('密码', { selector: 'input[type="password"]' }), { target: { value: 'Kestrel-Harbour-2048' } });
    fireEvent.click(screen.getByRole('button', { name: '验证并继续' }));
    await waitFor(() => expect(onProved).toHaveBeenCalledTimes(1));
    expect(sent.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
      { method: 'POST', url: '/api/admin/me/reauth', body: { password: 'Kestrel-Harbour-2048' } },
    ]);
  });

  it('with 通行密钥, asks the browser for the passkey and sends its answer as the proof', async () => {
    const answer = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', clientExtensionResults: {}, response: {} };
    const proof = jest.mocked(passkeyProof).mockResolvedValue(answer as never);
    const sent = installFakeNetwork(() => ({ status: 200, body: envelope({ validUntil: Date.now() + 900_000 }) }));
    const onProved = jest.fn();
    render(<ReauthDialog open onProved={onProved} onCancel={jest.fn()} />);
    fireEvent.click(screen.getByText('通行密钥'));
    fireEvent.click(screen.getByRole('button', { name: '验证并继续' }));
    await waitFor(() => expect(onProved).toHaveBeenCalledTimes(1));
    expect(proof).toHaveBeenCalledTimes(1);
    expect(sent.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
      { method: 'POST', url: '/api/admin/me/reauth', body: { passkey: answer } },
    ]);
    proof.mockReset();
  });

  it('sends one proof per press: Enter, the browser submitting the form on that Enter, and a click while it is on its way', async () => {
    // A wrong proof counts in the sign-in throttle: a typo sent twice would count twice.
    const sent = installFakeNetwork(() => refusal(400, '密码不正确'));
    render(<ReauthDialog open onProved={jest.fn()} onCancel={jest.fn()} />);
    const input = screen.getByLabelText('密码', { selector: 'input[type="password"]' });
    fireEvent.change(input, { target: { value: 'typo-password' } });
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    // What a browser does on Enter in a form of one field (implicit submission); jsdom does not.
    fireEvent.submit(input.closest('form')!);
    fireEvent.click(screen.getByRole('button', { name: /验证并继续/ }));
    expect(await screen.findByText('密码不正确')).toBeTruthy();
    expect(sent.filter(({ url }) => url === '/api/admin/me/reauth')).toHaveLength(1);
  });

  it('shows a refused proof in the dialog and stays open', async () => {
    installFakeNetwork(() => refusal(400, '密码不正确'));
    const onProved = jest.fn();
    render(<ReauthDialog open onProved={onProved} onCancel={jest.fn()} />);
    fireEvent.change(screen.getByLabelText('密码', { selector: 'input[type="password"]' }), { target: { value: 'wrong-one' } });
    fireEvent.click(screen.getByRole('button', { name: '验证并继续' }));
    expect(await screen.findByText('密码不正确')).toBeTruthy();
    expect(onProved).not.toHaveBeenCalled();
  });
});

describe('the request layer on 403 REAUTH_REQUIRED', () => {
  afterEach(() => setReauthAsker(null));

  it('asks through the mounted dialog, then the same call is sent again and its answer is the caller’s', async () => {
    let calls = 0;
    const sent = installFakeNetwork(() => {
      calls++;
      return calls === 1 ? refusal(403, '需要重新验证身份', 'REAUTH_REQUIRED') : { status: 200, body: envelope('done') };
    });
    const ask = jest.fn().mockResolvedValue(true);
    setReauthAsker(ask);
    await expect(request('/api/admin/000000000000000000000001', { method: 'DELETE' })).resolves.toEqual(envelope('done'));
    expect(ask).toHaveBeenCalledTimes(1);
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual([
      'DELETE /api/admin/000000000000000000000001',
      'DELETE /api/admin/000000000000000000000001',
    ]);
  });
});

describe('reauthInterceptor', () => {
  const refused = (errorCode: string) => ({
    config: { url: '/api/user/export', method: 'get' },
    response: {
      status: 403,
      data: { success: false, code: 403, msg: '需要重新验证身份', errorCode, data: null, reauthWindowSeconds: 600 },
    },
  });

  it('asks for a proof, telling the dialog how long it will last, and repeats the refused call once', async () => {
    const repeat = jest.fn().mockResolvedValue('again');
    const ask = jest.fn().mockResolvedValue(true);
    await expect(reauthInterceptor(repeat, ask)(refused('REAUTH_REQUIRED'))).resolves.toBe('again');
    expect(ask).toHaveBeenCalledTimes(1);
    expect(ask).toHaveBeenCalledWith(600);
    expect(repeat).toHaveBeenCalledWith(expect.objectContaining({ url: '/api/user/export', reauthRepeated: true }));
  });

  it('passes the refusal on when the dialog is closed, when the repeat is refused again, and for other refusals', async () => {
    const repeat = jest.fn();
    const error = refused('REAUTH_REQUIRED');
    await expect(reauthInterceptor(repeat, async () => false)(error)).rejects.toBe(error);
    const repeated = { ...error, config: { ...error.config, reauthRepeated: true } };
    await expect(reauthInterceptor(repeat, async () => true)(repeated)).rejects.toBe(repeated);
    const forbidden = refused('FORBIDDEN');
    await expect(reauthInterceptor(repeat, async () => true)(forbidden)).rejects.toBe(forbidden);
    expect(repeat).not.toHaveBeenCalled();
  });

  it('reads the envelope of a refused download (a blob)', async () => {
    const repeat = jest.fn().mockResolvedValue('file');
    const body = new Blob([JSON.stringify(refused('REAUTH_REQUIRED').response.data)], { type: 'application/json' });
    const error = { config: { url: '/api/book/export' }, response: { status: 403, data: body } };
    await expect(reauthInterceptor(repeat, async () => true)(error)).resolves.toBe('file');
  });
});
