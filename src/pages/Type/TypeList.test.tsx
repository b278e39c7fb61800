import { TestBrowser } from '@@/testBrowser';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { envelope, type FakeReply, type FakeRequest, installFakeNetwork, refusal } from '@/testing/fakeNetwork';
import type { TypeRecord } from '#contract/type';
import { confirmButton } from '@/testing/listScreen';

const type = (n: number, typeName: string): TypeRecord => ({
  _id: `65f1a2b3c4d5e6f708192b${String(n).padStart(2, '0')}`,
  version: 1,
  typeName,
  createdAt: 1_700_000_000_000 + n,
});

let handle: (req: FakeRequest) => FakeReply | undefined;
const sent = installFakeNetwork((req) => {
  const special = handle(req);
  if (special) return special;
  if (req.url === '/api/admin/whoami') {
    return {
      status: 200,
      body: envelope({ _id: '65f1a2b3c4d5e6f708192a02', loginId: 'editor', nickname: '内容编辑', avatar: '', permission: 2 }),
    };
  }
  if (req.method === 'GET' && req.url === '/api/type') {
    return { status: 200, body: envelope([type(1, 'HTML'), type(2, 'JavaScript')]) };
  }
  return refusal(404, '请求的资源不存在');
});

beforeEach(() => {
  handle = () => undefined;
  sent.length = 0;
  localStorage.setItem('adminToken', 'live-token');
});

async function openTypes() {
  render(<TestBrowser location={{ pathname: '/typeList' }} />);
  await screen.findByText('JavaScript', {}, { timeout: 10_000 });
}

async function addType(name: string) {
  fireEvent.change(screen.getByPlaceholderText('填写新增类型'), { target: { value: name } });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: '新增' }));
  });
}

const rowOf = (typeName: string) => screen.getByText(typeName).closest('tr') as HTMLElement;

describe('type list', () => {
  it('refuses a name already in the list without asking the server', async () => {
    await openTypes();

    await addType(' javascript ');

    expect(await screen.findByText('该类型已存在，请不要重复添加')).toBeInTheDocument();
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('adds a new type and shows it in 分类信息', async () => {
    handle = (req) => (req.method === 'POST' ? { status: 201, body: envelope(type(3, 'Go')) } : undefined);
    await openTypes();

    await addType('Go');

    expect(await screen.findByText('新增类型成功')).toBeInTheDocument();
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({ typeName: 'Go' });
    expect(within(rowOf('Go')).getByText('3')).toBeInTheDocument();
  });

  it('on a refused add shows the server’s message once, keeps the name and adds no row', async () => {
    handle = (req) => (req.method === 'POST' ? refusal(409, '该类型已存在') : undefined);
    await openTypes();

    await addType('Go');

    expect(await screen.findByText('该类型已存在')).toBeInTheDocument();
    expect(document.querySelectorAll('.ant-message-notice')).toHaveLength(1);
    expect(screen.queryByText('新增类型成功')).toBeNull();
    expect(screen.getByPlaceholderText('填写新增类型')).toHaveValue('Go');
    expect(screen.queryByText('Go', { selector: 'td *' })).toBeNull();
    expect(screen.getByRole('button', { name: '新增' })).not.toHaveClass('ant-btn-loading');
  });

  it('deletes a type once confirmed and accepted', async () => {
    handle = (req) => (req.method === 'DELETE' ? { status: 200, body: envelope(null) } : undefined);
    await openTypes();

    fireEvent.click(within(rowOf('HTML')).getByText('删除'));
    expect(await screen.findByText('你确定要删除？')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(confirmButton('删除'));
    });

    expect(await screen.findByText('删除类型成功')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('HTML')).toBeNull());
  });

  it('keeps a type the server refuses to delete and shows the server’s reason', async () => {
    const reason = '该分类下还有内容，无法删除（书籍 3 本）';
    handle = (req) => (req.method === 'DELETE' ? refusal(409, reason) : undefined);
    await openTypes();

    fireEvent.click(within(rowOf('JavaScript')).getByText('删除'));
    await screen.findByText('你确定要删除？');
    await act(async () => {
      fireEvent.click(confirmButton('删除'));
    });

    expect(await screen.findByText(reason)).toBeInTheDocument();
    expect(screen.queryByText('删除类型成功')).toBeNull();
    expect(screen.getByText('JavaScript')).toBeInTheDocument();
  });

  it('renames a type in place with PATCH', async () => {
    handle = (req) => (req.method === 'PATCH' ? { status: 200, body: envelope(type(1, 'HTML5')) } : undefined);
    await openTypes();

    fireEvent.click(within(rowOf('HTML')).getByRole('button', { name: '修改分类名称' }));
    const editor = within(rowOf('HTML')).getByRole('textbox');
    fireEvent.change(editor, { target: { value: 'HTML5' } });
    await act(async () => {
      fireEvent.keyDown(editor, { key: 'Enter', keyCode: 13 });
      fireEvent.keyUp(editor, { key: 'Enter', keyCode: 13 });
    });

    expect(await screen.findByText('修改类型成功')).toBeInTheDocument();
    expect(sent.find((r) => r.method === 'PATCH')).toMatchObject({
      url: `/api/type/${type(1, '')._id}`,
      body: { typeName: 'HTML5', version: 1 },
    });
    expect(screen.getByText('HTML5')).toBeInTheDocument();
  });

  describe('a rename someone else overtook (409 VERSION_CONFLICT)', () => {
    const renamedBy = { ...type(1, 'HyperText'), version: 2 };
    const conflict = {
      yourVersion: 1,
      currentVersion: 2,
      changes: [{ field: 'typeName', before: 'HTML', after: 'HyperText', by: 'editor2', at: Date.UTC(2026, 0, 2, 3, 4, 5) }],
      current: renamedBy,
    };
    const conflictReply = { ...refusal(409, '记录已被他人修改', 'VERSION_CONFLICT') } as { status: number; body: object };
    conflictReply.body = { ...conflictReply.body, conflict };

    async function renameHtml() {
      await openTypes();
      fireEvent.click(within(rowOf('HTML')).getByRole('button', { name: '修改分类名称' }));
      const editor = within(rowOf('HTML')).getByRole('textbox');
      fireEvent.change(editor, { target: { value: 'HTML5' } });
      await act(async () => {
        fireEvent.keyDown(editor, { key: 'Enter', keyCode: 13 });
        fireEvent.keyUp(editor, { key: 'Enter', keyCode: 13 });
      });
      return screen.findByRole('dialog');
    }

    it('shows their name beside mine; 仍然保存 sends mine again against the current version', async () => {
      handle = (req) => {
        if (req.method !== 'PATCH') return undefined;
        const { version } = req.body as { version?: number };
        return version === 2 ? { status: 200, body: envelope({ ...type(1, 'HTML5'), version: 3 }) } : conflictReply;
      };
      const dialog = await renameHtml();

      expect(within(dialog).getByText('记录已被其他管理员修改')).toBeInTheDocument();
      expect(within(dialog).getByText('HyperText')).toBeInTheDocument();
      expect(within(dialog).getByText('HTML5')).toBeInTheDocument();
      expect(within(dialog).getByText(/^editor2（/)).toBeInTheDocument();
      // The request layer leaves a conflict to the screen: no error toast beside the dialog.
      expect(screen.queryByText('记录已被他人修改')).toBeNull();
      await act(async () => {
        fireEvent.click(within(dialog).getByRole('button', { name: '仍然保存' }));
      });

      expect(await screen.findByText('修改类型成功')).toBeInTheDocument();
      expect(sent.filter((r) => r.method === 'PATCH').map((r) => r.body)).toEqual([
        { typeName: 'HTML5', version: 1 },
        { typeName: 'HTML5', version: 2 },
      ]);
      // The row (not the closed dialog, which stays in the page) shows my name now.
      const table = rowOf('JavaScript').closest('tbody') as HTMLElement;
      expect(within(table).getByText('HTML5')).toBeInTheDocument();
    });

    it('重新载入 drops mine and shows the list as it is now', async () => {
      let listed = [type(1, 'HTML'), type(2, 'JavaScript')];
      handle = (req) => {
        if (req.method === 'PATCH') {
          listed = [renamedBy, type(2, 'JavaScript')];
          return conflictReply;
        }
        if (req.method === 'GET' && req.url === '/api/type') return { status: 200, body: envelope(listed) };
        return undefined;
      };
      const dialog = await renameHtml();
      await act(async () => {
        fireEvent.click(within(dialog).getByRole('button', { name: '重新载入' }));
      });

      expect(await screen.findByText('HyperText', { selector: 'td *' })).toBeInTheDocument();
      expect(sent.filter((r) => r.method === 'PATCH')).toHaveLength(1);
      expect(screen.queryByText('修改类型成功')).toBeNull();
    });
  });
});
