import { TestBrowser } from '@@/testBrowser';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { envelope, type FakeReply, type FakeRequest, installFakeNetwork, refusal } from '@/testing/fakeNetwork';
import type { Comment } from '@/types/api';

const TYPE_ID = '65f1a2b3c4d5e6f708192b01';
const comment = (commentType: 1 | 2, title: string): Comment => ({
  _id: `65f1a2b3c4d5e6f708192e0${commentType}`,
  userId: '65f1a2b3c4d5e6f708192c01',
  issueId: commentType === 1 ? '65f1a2b3c4d5e6f708192d01' : null,
  bookId: commentType === 2 ? '65f1a2b3c4d5e6f708192f01' : null,
  typeId: TYPE_ID,
  commentContent: '<p>说得<em>很好</em></p><script>window.evil = 1</script>',
  commentDate: 1_700_000_000_000,
  commentType,
  user: { _id: '65f1a2b3c4d5e6f708192c01', nickname: '小明', avatar: '' },
  target: { _id: commentType === 1 ? '65f1a2b3c4d5e6f708192d01' : '65f1a2b3c4d5e6f708192f01', title },
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
    return { status: 200, body: envelope([{ _id: TYPE_ID, typeName: 'JavaScript', createdAt: 1 }]) };
  }
  const match = /^\/api\/comment\/([12])\?/.exec(req.url);
  if (req.method === 'GET' && match) {
    const row = match[1] === '1' ? comment(1, '闭包是什么') : comment(2, '你不知道的JavaScript');
    return { status: 200, body: envelope({ currentPage: 1, eachPage: 10, count: 1, totalPage: 1, data: [row] }) };
  }
  return refusal(404, '请求的资源不存在');
});

beforeEach(() => {
  handle = () => undefined;
  sent.length = 0;
  localStorage.setItem('adminToken', 'live-token');
});

const commentUrls = () => sent.filter((r) => r.method === 'GET' && r.url.startsWith('/api/comment/')).map((r) => r.url);

async function openComments() {
  render(<TestBrowser location={{ pathname: '/commentList' }} />);
  await screen.findByText('闭包是什么', {}, { timeout: 10_000 });
}

describe('comment list', () => {
  it('starts on issue comments and switches the request to book comments with the radio', async () => {
    await openComments();
    expect(commentUrls()[0]).toMatch(/^\/api\/comment\/1\?/);
    expect(screen.getByText('问题标题')).toBeInTheDocument();
    expect(within(screen.getByText('闭包是什么').closest('tr') as HTMLElement).getByText('说得很好')).toBeInTheDocument();

    await act(async () => {
      fireEvent.click(screen.getByText('书籍评论'));
    });

    expect(await screen.findByText('你不知道的JavaScript')).toBeInTheDocument();
    expect(commentUrls().at(-1)).toMatch(/^\/api\/comment\/2\?current=1&pageSize=10/);
    expect(screen.getByText('书籍标题')).toBeInTheDocument();
  });

  it('shows the details with the HTML sanitised', async () => {
    await openComments();

    await act(async () => {
      fireEvent.click(screen.getByText('详情'));
    });

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('很好').tagName).toBe('EM');
    expect(dialog.querySelector('script')).toBeNull();
  });

  it('deletes a comment after the confirmation', async () => {
    handle = (req) => (req.method === 'DELETE' ? { status: 200, body: envelope(null) } : undefined);
    await openComments();

    await act(async () => {
      fireEvent.click(screen.getByText('删除'));
    });
    expect(await screen.findByText('是否要删除该条评论？')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /删\s*除/ }));
    });

    expect(await screen.findByText('删除评论成功')).toBeInTheDocument();
    await waitFor(() => expect(sent.find((r) => r.method === 'DELETE')?.url).toBe('/api/comment/65f1a2b3c4d5e6f708192e01'));
  });
});
