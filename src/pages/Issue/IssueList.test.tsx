import { TestBrowser } from '@@/testBrowser';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { envelope, type FakeReply, type FakeRequest, installFakeNetwork, refusal } from '@/testing/fakeNetwork';
import type { Issue } from '@/types/api';

const TYPE_ID = '65f1a2b3c4d5e6f708192b01';
const issue: Issue = {
  _id: '65f1a2b3c4d5e6f708192d01',
  issueTitle: '闭包是什么',
  issueContent: '<p>请问<strong>闭包</strong>到底是什么？</p>',
  scanNumber: 12,
  commentNumber: 3,
  issueStatus: false,
  issueDate: 1_700_000_000_000,
  userId: '65f1a2b3c4d5e6f708192c01',
  typeId: TYPE_ID,
  user: { _id: '65f1a2b3c4d5e6f708192c01', nickname: '小明', avatar: '' },
};

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
    return { status: 200, body: envelope([{ _id: TYPE_ID, typeName: 'JavaScript', createdAt: 1 }]) };
  }
  if (req.method === 'GET' && req.url.startsWith('/api/issue?')) {
    return { status: 200, body: envelope({ currentPage: 1, eachPage: 10, count: 1, totalPage: 1, data: [issue] }) };
  }
  return refusal(404, '请求的资源不存在');
});

beforeEach(() => {
  handle = () => undefined;
  sent.length = 0;
  localStorage.setItem('adminToken', 'live-token');
});

const issueQueries = () =>
  sent
    .filter((r) => r.method === 'GET' && r.url.startsWith('/api/issue?'))
    .map((r) => new URLSearchParams(r.url.split('?')[1]));

async function openIssues() {
  render(<TestBrowser location={{ pathname: '/issue' }} />);
  await screen.findByText('闭包是什么', {}, { timeout: 10_000 });
}

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
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    });

    await waitFor(() => expect(issueQueries().at(-1)?.get('issueTitle')).toBe('闭包'));
    expect(issueQueries().at(-1)?.get('current')).toBe('1');
  });

  it('approves an issue through PATCH {issueStatus}', async () => {
    handle = (req) =>
      req.method === 'PATCH' ? { status: 200, body: envelope({ ...issue, issueStatus: true }) } : undefined;
    await openIssues();

    await act(async () => {
      fireEvent.click(within(rowOf('闭包是什么')).getByRole('switch'));
    });

    expect(await screen.findByText('该问题审核已通过')).toBeInTheDocument();
    const patch = sent.find((r) => r.method === 'PATCH');
    expect(patch?.url).toBe(`/api/issue/${issue._id}`);
    expect(patch?.body).toEqual({ issueStatus: true });
  });

  it('deletes an issue after the confirmation', async () => {
    handle = (req) => (req.method === 'DELETE' ? { status: 200, body: envelope(null) } : undefined);
    await openIssues();

    await act(async () => {
      fireEvent.click(within(rowOf('闭包是什么')).getByText('删除'));
    });
    expect(await screen.findByText('是否要删除该问答以及该问答对应的评论？')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /删\s*除/ }));
    });

    expect(await screen.findByText('删除问答成功')).toBeInTheDocument();
    expect(sent.find((r) => r.method === 'DELETE')?.url).toBe(`/api/issue/${issue._id}`);
  });
});
