import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { envelope } from '@/testing/fakeNetwork';
import { confirmButton, JS_TYPE, listScreenNetwork, openList, pageReply } from '@/testing/listScreen';
import type { CommentRow } from '#contract/comment';

const comment = (commentType: 1 | 2, title: string): CommentRow => ({
  _id: `65f1a2b3c4d5e6f708192e0${commentType}`,
  userId: '65f1a2b3c4d5e6f708192c01',
  issueId: commentType === 1 ? '65f1a2b3c4d5e6f708192d01' : null,
  bookId: commentType === 2 ? '65f1a2b3c4d5e6f708192f01' : null,
  typeId: JS_TYPE,
  commentContent: '<p>说得<em>很好</em></p><script>window.evil = 1</script>',
  commentDate: 1_700_000_000_000,
  commentType,
  user: { _id: '65f1a2b3c4d5e6f708192c01', nickname: '小明', avatar: '' },
  target: { _id: commentType === 1 ? '65f1a2b3c4d5e6f708192d01' : '65f1a2b3c4d5e6f708192f01', title },
});

const net = listScreenNetwork((req) => {
  const match = /^\/api\/comment\/([12])\?/.exec(req.url);
  if (req.method !== 'GET' || !match) return undefined;
  return pageReply(req.url, [match[1] === '1' ? comment(1, '闭包是什么') : comment(2, '你不知道的JavaScript')], 1);
});
const { sent } = net;

const commentUrls = () => sent.filter((r) => r.method === 'GET' && r.url.startsWith('/api/comment/')).map((r) => r.url);

const openComments = () => openList('/commentList', '闭包是什么');

describe('comment list', () => {
  it('starts on issue comments and switches the request to book comments with the radio', async () => {
    await openComments();
    expect(commentUrls()[0]).toMatch(/^\/api\/comment\/1\?/);
    expect(screen.getByRole('columnheader', { name: '问题标题' })).toBeInTheDocument();
    expect(within(screen.getByText('闭包是什么').closest('tr') as HTMLElement).getByText('说得很好')).toBeInTheDocument();

    await act(async () => {
      fireEvent.click(screen.getByText('书籍评论'));
    });

    expect(await screen.findByText('你不知道的JavaScript')).toBeInTheDocument();
    expect(commentUrls().at(-1)).toMatch(/^\/api\/comment\/2\?current=1&pageSize=10/);
    expect(screen.getByRole('columnheader', { name: '书籍标题' })).toBeInTheDocument();
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
    net.handle = (req) => (req.method === 'DELETE' ? { status: 200, body: envelope(null) } : undefined);
    await openComments();

    await act(async () => {
      fireEvent.click(screen.getByText('删除'));
    });
    expect(await screen.findByText('是否要删除该条评论？')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(confirmButton(/删\s*除/));
    });

    expect(await screen.findByText('删除评论成功')).toBeInTheDocument();
    await waitFor(() => expect(sent.find((r) => r.method === 'DELETE')?.url).toBe('/api/comment/65f1a2b3c4d5e6f708192e01'));
  });
});
