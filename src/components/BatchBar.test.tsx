import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { envelope } from '@/testing/fakeNetwork';
import { JS_TYPE, listScreenNetwork, openList, pageReply } from '@/testing/listScreen';
import type { Issue } from '#contract/issue';

const issue = (n: number): Issue => ({
  _id: `65f1a2b3c4d5e6f708192d0${n}`,
  version: 1,
  issueTitle: `问题${n}`,
  issueContent: '<p>x</p>',
  scanNumber: 0,
  commentNumber: 0,
  issueStatus: false,
  issueDate: 1_700_000_000_000,
  userId: '65f1a2b3c4d5e6f708192c01',
  typeId: JS_TYPE,
  user: { _id: '65f1a2b3c4d5e6f708192c01', nickname: '小明', avatar: '' },
});
const issues = [issue(1), issue(2), issue(3)];

const net = listScreenNetwork((req) =>
  req.method === 'GET' && req.url.startsWith('/api/issue?') ? pageReply(req.url, issues, issues.length) : undefined,
);

const checkboxOf = (title: string) => within(screen.getByText(title).closest('tr') as HTMLElement).getByRole('checkbox');

describe('row selection and bulk actions', () => {
  it('shows how many rows are selected and approves them after a confirmation naming the count', async () => {
    net.handle = (req) => (req.method === 'POST' ? { status: 200, body: envelope({ done: 3 }) } : undefined);
    await openList('/issue', '问题1');
    for (const title of ['问题1', '问题2', '问题3']) {
      await act(async () => {
        fireEvent.click(checkboxOf(title));
      });
    }
    expect(await screen.findByText('已选择 3 项')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '批量审核通过' }));
    });
    expect(await screen.findByText('确定要审核通过选中的 3 条记录吗？')).toBeInTheDocument();
    const before = net.queriesTo('/api/issue').length;
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '审核通过' }));
    });
    expect(await screen.findByText('已审核通过 3 条记录')).toBeInTheDocument();
    const post = net.sent.find((r) => r.method === 'POST');
    expect(post?.url).toBe('/api/issue/batch');
    expect(post?.body).toEqual({ action: 'approve', ids: issues.map((i) => i._id) });
    await waitFor(() => expect(net.queriesTo('/api/issue').length).toBeGreaterThan(before));
  });

  it('names the count of a delete, and sends nothing when it is cancelled', async () => {
    await openList('/issue', '问题1');
    await act(async () => {
      fireEvent.click(checkboxOf('问题2'));
    });
    expect(await screen.findByText('已选择 1 项')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '批量删除' }));
    });
    expect(await screen.findByText('确定要删除选中的 1 条记录吗？')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /^取\s*消$/ }));
    });
    expect(net.sent.some((r) => r.method === 'POST')).toBe(false);
  });
});
