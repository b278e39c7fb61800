import { TestBrowser } from '@@/testBrowser';
import { history } from '@umijs/max';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { envelope, type FakeReply, type FakeRequest, installFakeNetwork, refusal } from '@/testing/fakeNetwork';
import type { CommentRow } from '#contract/comment';
import type { Issue } from '#contract/issue';
import { confirmButton, findConfirmButton } from '@/testing/listScreen';

const TYPE_ID = '65f1a2b3c4d5e6f708192b01';
const issue: Issue = {
  _id: '65f1a2b3c4d5e6f708192d01',
  version: 1,
  issueTitle: '闭包是什么',
  issueContent: '<p>请问<strong>闭包</strong>到底是什么？</p><img src="x" onerror="window.hacked = true">',
  scanNumber: 12,
  commentNumber: 25,
  issueStatus: false,
  issueDate: 1_700_000_000_000,
  userId: '65f1a2b3c4d5e6f708192c01',
  typeId: TYPE_ID,
  user: { _id: '65f1a2b3c4d5e6f708192c01', nickname: '小明', avatar: '' },
};

const comment = (n: number): CommentRow => ({
  _id: `65f1a2b3c4d5e6f708192e${String(n).padStart(2, '0')}`,
  userId: '65f1a2b3c4d5e6f708192c02',
  issueId: issue._id,
  bookId: null,
  typeId: TYPE_ID,
  commentContent: `<p>第 ${n} 条<em>评论</em></p>`,
  commentDate: 1_700_000_000_000 + n,
  commentType: 1,
  user: { _id: '65f1a2b3c4d5e6f708192c02', nickname: `评论者${n}`, avatar: '' },
  target: { _id: issue._id, title: issue.issueTitle },
});

let comments: CommentRow[];
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
  if (req.method === 'GET' && req.url === `/api/issue/${issue._id}`) return { status: 200, body: envelope(issue) };
  if (req.method === 'GET' && req.url.startsWith(`/api/comment/issuecomment/${issue._id}?`)) {
    const query = new URLSearchParams(req.url.split('?')[1]);
    const current = Number(query.get('current'));
    const pageSize = Number(query.get('pageSize'));
    return {
      status: 200,
      body: envelope({
        currentPage: current,
        eachPage: pageSize,
        count: comments.length,
        totalPage: Math.ceil(comments.length / pageSize),
        data: comments.slice((current - 1) * pageSize, current * pageSize),
      }),
    };
  }
  return refusal(404, '请求的资源不存在');
});

beforeEach(() => {
  comments = Array.from({ length: 25 }, (_, i) => comment(i + 1));
  handle = () => undefined;
  sent.length = 0;
  localStorage.setItem('adminToken', 'live-token');
});

async function openIssue(id = issue._id) {
  render(<TestBrowser location={{ pathname: `/issue/${id}` }} />);
}

async function openLoadedIssue() {
  await openIssue();
  await screen.findByText('第 1 条', { exact: false }, { timeout: 10_000 });
}

/** The value cell beside a label of the bordered description table. */
const field = (label: string) =>
  screen.getByText(label, { selector: '.ant-descriptions-item-label > span' }).closest('th')?.nextElementSibling as HTMLElement;

const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

describe('issue detail', () => {
  it('shows the issue’s fields with its description as sanitised HTML', async () => {
    await openLoadedIssue();

    expect(screen.getByRole('heading', { name: '闭包是什么' })).toBeInTheDocument();
    expect(await screen.findByText('JavaScript', { selector: '.ant-tag' })).toBeInTheDocument();
    expect(field('提问用户')).toHaveTextContent('小明');
    expect(field('提问时间')).toHaveTextContent(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(field('浏览数')).toHaveTextContent('12');
    expect(field('评论数')).toHaveTextContent('25');
    expect(within(field('审核状态')).getByRole('switch')).not.toBeChecked();
    const description = field('问题描述');
    expect(description.querySelector('strong')).toHaveTextContent('闭包');
    expect(description.querySelector('img')).not.toHaveAttribute('onerror');
  });

  it('lists the issue’s comments a page at a time, with serial numbers across pages', async () => {
    await openLoadedIssue();

    const queries = () =>
      sent.filter((r) => r.url.startsWith('/api/comment/issuecomment/')).map((r) => new URLSearchParams(r.url.split('?')[1]));
    expect(queries()[0].get('current')).toBe('1');
    expect(queries()[0].get('pageSize')).toBe('10');
    expect(within(rowOf('第 1 条')).getByText('评论者1')).toBeInTheDocument();
    expect(rowOf('第 1 条').querySelector('em')).toHaveTextContent('评论');

    await act(async () => {
      fireEvent.click(screen.getByTitle('2'));
    });

    await waitFor(() => expect(queries().at(-1)?.get('current')).toBe('2'));
    expect(await screen.findByText('第 11 条', { exact: false })).toBeInTheDocument();
    expect(within(rowOf('第 11 条')).getByText('11')).toBeInTheDocument();
  });

  it('approves the issue through PATCH {issueStatus} and says so', async () => {
    handle = (req) => (req.method === 'PATCH' ? { status: 200, body: envelope({ ...issue, issueStatus: true }) } : undefined);
    await openLoadedIssue();

    await act(async () => {
      fireEvent.click(within(field('审核状态')).getByRole('switch'));
    });

    expect(await screen.findByText('该问题审核已通过')).toBeInTheDocument();
    const patch = sent.find((r) => r.method === 'PATCH');
    expect(patch?.url).toBe(`/api/issue/${issue._id}`);
    expect(patch?.body).toEqual({ issueStatus: true, version: 1 });
    expect(within(field('审核状态')).getByRole('switch')).toBeChecked();
  });

  it('on 409 VERSION_CONFLICT says who changed it and shows the issue as it is now', async () => {
    const conflict = {
      yourVersion: 1,
      currentVersion: 2,
      changes: [{ field: 'issueStatus', before: false, after: true, by: 'editor2', at: Date.UTC(2026, 0, 2, 3, 4, 5) }],
      current: { ...issue, issueStatus: true, version: 2 },
    };
    handle = (req) =>
      req.method === 'PATCH'
        ? { status: 409, body: { success: false, code: 409, msg: '记录已被他人修改', data: null, errorCode: 'VERSION_CONFLICT', conflict } }
        : undefined;
    await openLoadedIssue();

    await act(async () => {
      fireEvent.click(within(field('审核状态')).getByRole('switch'));
    });

    expect(await screen.findByText(/^该问答已被 editor2（.*）修改，已载入最新状态，请确认后再操作$/)).toBeInTheDocument();
    expect(within(field('审核状态')).getByRole('switch')).toBeChecked();
    expect(screen.queryByText('该问题审核已通过')).toBeNull();
  });

  it('keeps the switch as it was when the server refuses', async () => {
    handle = (req) => (req.method === 'PATCH' ? refusal(500, '服务器内部错误') : undefined);
    await openLoadedIssue();

    await act(async () => {
      fireEvent.click(within(field('审核状态')).getByRole('switch'));
    });

    expect(await screen.findByText('服务器内部错误')).toBeInTheDocument();
    expect(within(field('审核状态')).getByRole('switch')).not.toBeChecked();
  });

  it('deletes a comment after the confirmation, and the count drops', async () => {
    handle = (req) => {
      if (req.method === 'DELETE') {
        const id = req.url.split('/').pop();
        comments = comments.filter((c) => c._id !== id);
        return { status: 200, body: envelope(null) };
      }
      return undefined;
    };
    const [first] = comments;
    await openLoadedIssue();

    await act(async () => {
      fireEvent.click(within(rowOf('第 1 条')).getByText('删除'));
    });
    expect(await screen.findByText('是否要删除该条评论？')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(confirmButton(/删\s*除/));
    });

    expect(await screen.findByText('删除评论成功')).toBeInTheDocument();
    expect(sent.find((r) => r.method === 'DELETE')?.url).toBe(`/api/comment/${first._id}`);
    expect(field('评论数')).toHaveTextContent('24');
    await waitFor(() => expect(screen.queryByText('第 1 条', { exact: false })).toBeNull());
  });

  it('keeps the count when the server refuses the delete', async () => {
    handle = (req) => (req.method === 'DELETE' ? refusal(404, '评论不存在') : undefined);
    await openLoadedIssue();

    await act(async () => {
      fireEvent.click(within(rowOf('第 1 条')).getByText('删除'));
    });
    await act(async () => {
      fireEvent.click(await findConfirmButton(/删\s*除/));
    });

    expect(await screen.findByText('评论不存在')).toBeInTheDocument();
    expect(screen.queryByText('删除评论成功')).toBeNull();
    expect(field('评论数')).toHaveTextContent('25');
  });

  it('shows the server’s message for an issue that does not exist', async () => {
    handle = (req) => (req.url === '/api/issue/65f1a2b3c4d5e6f708192d99' ? refusal(404, '问答不存在') : undefined);
    await openIssue('65f1a2b3c4d5e6f708192d99');

    expect(await screen.findByText('问答不存在', { selector: '.ant-empty-description' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(sent.some((r) => r.url.startsWith('/api/comment/'))).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: '返回问答列表' }));
    await waitFor(() => expect(history.location.pathname).toBe('/issue'));
  });
});
