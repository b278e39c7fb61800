import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { envelope, refusal } from '@/testing/fakeNetwork';
import { findConfirmButton, listScreenNetwork, openList, pageReply } from '@/testing/listScreen';
import { adminWith } from '@/testing/signedInApp';
import type { TrashEntry } from '#contract/trash';

const entry = (n: number, entity: TrashEntry['entity'], title: string, cascaded = 0): TrashEntry => ({
  _id: `65f1a2b3c4d5e6f708192f${String(n).padStart(2, '0')}`,
  entity,
  entityId: `65f1a2b3c4d5e6f708192e${String(n).padStart(2, '0')}`,
  title,
  cascaded,
  deletedBy: { _id: '65f1a2b3c4d5e6f708192a02', loginId: 'editor' },
  deletedAt: 1_700_000_000_000,
  expiresAt: 1_702_592_000_000,
});

let entries: TrashEntry[];
const net = listScreenNetwork((req) => {
  if (req.method === 'GET' && req.url.startsWith('/api/trash?')) return pageReply(req.url, entries, entries.length);
  const restore = /^\/api\/trash\/(\w+)\/restore$/.exec(req.url);
  if (req.method === 'POST' && restore) {
    const found = entries.find((e) => e._id === restore[1])!;
    entries = entries.filter((e) => e !== found);
    return { status: 200, body: envelope(found) };
  }
  return undefined;
});

beforeEach(() => {
  entries = [entry(1, 'issue', '如何理解闭包', 3), entry(2, 'user', 'zhangsan', 5)];
});

const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

async function confirm(row: HTMLElement, action: string, ok: string) {
  fireEvent.click(within(row).getByText(action));
  const button = await findConfirmButton(new RegExp(`^${ok.split('').join('\\s*')}$`));
  await act(async () => {
    fireEvent.click(button);
  });
}

describe('回收站', () => {
  it('lists what was deleted, with its type, how many records went with it, who and when', async () => {
    await openList('/trash', '如何理解闭包');
    expect(document.querySelector('.ant-pro-table-list-toolbar-title')).toHaveTextContent('回收站');
    const issue = within(rowOf('如何理解闭包'));
    expect(issue.getByText('问答', { selector: '.ant-tag' })).toBeInTheDocument();
    expect(issue.getByText('3 条')).toBeInTheDocument();
    expect(issue.getByText('editor')).toBeInTheDocument();
    expect(issue.getAllByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)).toHaveLength(2);
  });

  it('a normal admin restores an issue behind a confirmation; users and purging are not offered', async () => {
    await openList('/trash', '如何理解闭包');
    expect(within(rowOf('zhangsan')).queryByText('恢复')).toBeNull();
    expect(screen.queryByText('彻底删除')).toBeNull();

    await confirm(rowOf('如何理解闭包'), '恢复', '恢复');
    await screen.findByText('恢复成功');
    expect(net.sent.some((r) => r.method === 'POST' && r.url === '/api/trash/65f1a2b3c4d5e6f708192f01/restore')).toBe(true);
    await waitFor(() => expect(screen.queryByText('如何理解闭包')).toBeNull());
  });

  it('a super admin may restore a user and purge, after confirming', async () => {
    net.me = adminWith(1);
    net.handle = (req) => {
      if (req.method !== 'DELETE' || req.url !== '/api/trash/65f1a2b3c4d5e6f708192f02') return undefined;
      entries = entries.filter((e) => e.entity !== 'user');
      return { status: 200, body: envelope(entry(2, 'user', 'zhangsan', 5)) };
    };
    await openList('/trash', 'zhangsan');
    expect(within(rowOf('zhangsan')).getByText('恢复')).toBeInTheDocument();

    fireEvent.click(within(rowOf('zhangsan')).getByText('彻底删除'));
    // The confirmation says what goes with it.
    expect(await screen.findByText('彻底删除后无法恢复，随它删除的 5 条记录也将一并删除，确定吗？')).toBeInTheDocument();
    const purge = await findConfirmButton(/^彻\s*底\s*删\s*除$/);
    await act(async () => {
      fireEvent.click(purge);
    });
    await screen.findByText('彻底删除成功');
    await waitFor(() => expect(screen.queryByText('zhangsan')).toBeNull());
  });

  it('shows the reason when a restore is refused, and keeps the entry', async () => {
    net.handle = (req) => (req.method === 'POST' ? refusal(409, '所属用户已不存在或在回收站中，请先恢复该用户') : undefined);
    await openList('/trash', '如何理解闭包');
    await confirm(rowOf('如何理解闭包'), '恢复', '恢复');
    await screen.findByText('所属用户已不存在或在回收站中，请先恢复该用户');
    expect(screen.getByText('如何理解闭包')).toBeInTheDocument();
  });
});
