import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { envelope } from '@/testing/fakeNetwork';
import { clickSearch, confirmButton, JS_TYPE, listScreenNetwork, openList, pageReply } from '@/testing/listScreen';
import type { Issue } from '#contract/issue';

const issue: Issue = {
  _id: '65f1a2b3c4d5e6f708192d01',
  version: 1,
  issueTitle: '闭包是什么',
  issueContent: '<p>请问<strong>闭包</strong>到底是什么？</p>',
  scanNumber: 12,
  commentNumber: 3,
  issueStatus: false,
  issueDate: 1_700_000_000_000,
  userId: '65f1a2b3c4d5e6f708192c01',
  typeId: JS_TYPE,
  user: { _id: '65f1a2b3c4d5e6f708192c01', nickname: '小明', avatar: '' },
};

const net = listScreenNetwork((req) =>
  req.method === 'GET' && req.url.startsWith('/api/issue?') ? pageReply(req.url, [issue], 1) : undefined,
);
const { sent } = net;

const issueQueries = () => net.queriesTo('/api/issue');

const openIssues = () => openList('/issue', '闭包是什么');

const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

describe('issue list', () => {
  it('shows the author, the plain-text description and the type tag', async () => {
    await openIssues();

    const row = within(rowOf('闭包是什么'));
    expect(row.getByText('小明')).toBeInTheDocument();
    expect(row.getByText('请问闭包到底是什么？')).toBeInTheDocument();
    expect(row.getByText('JavaScript')).toBeInTheDocument();
    expect(row.getByRole('switch')).not.toBeChecked();
    expect(issueQueries()[0].get('pageSize')).toBe('10');
  });

  it('sends the title filter and the paging to the query', async () => {
    await openIssues();

    fireEvent.change(screen.getByLabelText('问答标题'), { target: { value: '闭包' } });
    await clickSearch();

    await waitFor(() => expect(issueQueries().at(-1)?.get('issueTitle')).toBe('闭包'));
    expect(issueQueries().at(-1)?.get('current')).toBe('1');
  });

  it('approves an issue through PATCH {issueStatus}', async () => {
    net.handle = (req) => (req.method === 'PATCH' ? { status: 200, body: envelope({ ...issue, issueStatus: true }) } : undefined);
    await openIssues();
    // The switch says its state in words.
    expect(within(rowOf('闭包是什么')).getByRole('switch')).toHaveTextContent('待审核');

    await act(async () => {
      fireEvent.click(within(rowOf('闭包是什么')).getByRole('switch'));
    });

    expect(await screen.findByText('该问题审核已通过')).toBeInTheDocument();
    const patch = sent.find((r) => r.method === 'PATCH');
    expect(patch?.url).toBe(`/api/issue/${issue._id}`);
    expect(patch?.body).toEqual({ issueStatus: true, version: 1 });
  });

  it('on 409 VERSION_CONFLICT says who approved it meanwhile and shows the list as it is now', async () => {
    const approved = { ...issue, issueStatus: true, version: 2 };
    let current = issue;
    net.handle = (req) => {
      if (req.method === 'PATCH') {
        current = approved;
        const conflict = {
          yourVersion: 1,
          currentVersion: 2,
          changes: [{ field: 'issueStatus', before: false, after: true, by: 'editor2', at: Date.UTC(2026, 0, 2, 3, 4, 5) }],
          current: approved,
        };
        return {
          status: 409,
          body: { success: false, code: 409, msg: '记录已被他人修改', data: null, errorCode: 'VERSION_CONFLICT', conflict },
        };
      }
      if (req.method === 'GET' && req.url.startsWith('/api/issue?')) return pageReply(req.url, [current], 1);
      return undefined;
    };
    await openIssues();

    await act(async () => {
      fireEvent.click(within(rowOf('闭包是什么')).getByRole('switch'));
    });

    expect(await screen.findByText(/^该问答已被 editor2（.*）修改，已载入最新状态，请确认后再操作$/)).toBeInTheDocument();
    await waitFor(() => expect(within(rowOf('闭包是什么')).getByRole('switch')).toBeChecked());
    expect(sent.filter((r) => r.method === 'PATCH')).toHaveLength(1);
    expect(screen.queryByText('该问题审核已通过')).toBeNull();
    expect(screen.queryByText('记录已被他人修改')).toBeNull();
  });

  it('deletes an issue after the confirmation', async () => {
    net.handle = (req) => (req.method === 'DELETE' ? { status: 200, body: envelope(null) } : undefined);
    await openIssues();

    await act(async () => {
      fireEvent.click(within(rowOf('闭包是什么')).getByText('删除'));
    });
    expect(await screen.findByText('是否要删除该问答以及该问答对应的评论？')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(confirmButton(/删\s*除/));
    });

    expect(await screen.findByText('删除问答成功')).toBeInTheDocument();
    expect(sent.find((r) => r.method === 'DELETE')?.url).toBe(`/api/issue/${issue._id}`);
  });
});
