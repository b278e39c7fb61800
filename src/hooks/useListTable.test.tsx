import { history } from '@umijs/max';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { envelope } from '@/testing/fakeNetwork';
import { clickSearch, confirmButton, JS_TYPE, listScreenNetwork, openList, pageReply } from '@/testing/listScreen';
import { listSearch, pageOf } from './useListTable';
import type { CommentRow } from '#contract/comment';
import type { Issue } from '#contract/issue';

/*
 * The list mechanics every server-paged list shares, through the issue and comment lists: the
 * selection is what the screen shows, the address holds the list's state, active filters show.
 */

const issue = (n: number): Issue => ({
  _id: `65f1a2b3c4d5e6f7081${String(n).padStart(5, '0')}`,
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
const issues = Array.from({ length: 25 }, (_, i) => issue(i + 1));

const comment = (commentType: 1 | 2, n: number): CommentRow => ({
  _id: `65f1a2b3c4d5e6f7082${commentType}${String(n).padStart(4, '0')}`,
  userId: '65f1a2b3c4d5e6f708192c01',
  issueId: commentType === 1 ? issues[0]._id : null,
  bookId: commentType === 2 ? '65f1a2b3c4d5e6f708192f01' : null,
  typeId: JS_TYPE,
  commentContent: `<p>评论${commentType}-${n}</p>`,
  commentDate: 1_700_000_000_000,
  commentType,
  user: { _id: '65f1a2b3c4d5e6f708192c01', nickname: '小明', avatar: '' },
  target: { _id: '65f1a2b3c4d5e6f708192f01', title: commentType === 1 ? '问答甲' : '书籍乙' },
});

/** The rows of the page a query asks for, of those its title filter lets through. */
function pageOf25<T>(url: string, rows: T[], title: (row: T) => string, filter: string | null) {
  const query = new URLSearchParams(url.split('?')[1]);
  const matching = filter ? rows.filter((row) => title(row).includes(filter)) : rows;
  const current = Number(query.get('current'));
  const pageSize = Number(query.get('pageSize'));
  return pageReply(url, matching.slice((current - 1) * pageSize, current * pageSize), matching.length);
}

const net = listScreenNetwork((req) => {
  if (req.method !== 'GET') return undefined;
  const query = new URLSearchParams(req.url.split('?')[1]);
  if (req.url.startsWith('/api/issue?')) return pageOf25(req.url, issues, (row) => row.issueTitle, query.get('issueTitle'));
  const kind = /^\/api\/comment\/([12])\?/.exec(req.url)?.[1];
  if (kind) {
    const rows = Array.from({ length: 3 }, (_, i) => comment(Number(kind) as 1 | 2, i + 1));
    return pageOf25(req.url, rows, (row) => row.commentContent, query.get('commentContent'));
  }
  return undefined;
});

const issueQueries = () => net.queriesTo('/api/issue');
const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

async function tick(...texts: string[]) {
  for (const text of texts) {
    await act(async () => {
      fireEvent.click(within(rowOf(text)).getByRole('checkbox', { name: '选择此行' }));
    });
  }
}

async function goToPage(page: number) {
  await act(async () => {
    fireEvent.click(screen.getByTitle(String(page)));
  });
}

const checkedRows = () => screen.queryAllByRole('checkbox', { name: '选择此行', checked: true });

describe('the selection is what the screen shows', () => {
  it('is cleared when the page changes, so a bulk action cannot reach rows out of sight', async () => {
    await openList('/issue', '问题1');
    await tick('问题1', '问题2');
    expect(screen.getByText('已选择 2 项')).toBeInTheDocument();

    await goToPage(2);
    expect(await screen.findByText('问题11')).toBeInTheDocument();
    expect(screen.queryByText(/已选择/)).toBeNull();
    expect(screen.queryByRole('button', { name: '批量删除' })).toBeNull();
    expect(checkedRows()).toHaveLength(0);
  });

  it('is cleared by a search and by 重置', async () => {
    await openList('/issue', '问题1');
    await tick('问题1');
    fireEvent.change(screen.getByLabelText('问答标题'), { target: { value: '问题2' } });
    await clickSearch();
    await waitFor(() => expect(issueQueries().at(-1)?.get('issueTitle')).toBe('问题2'));
    await waitFor(() => expect(screen.queryByText('问题1')).toBeNull());
    expect(screen.queryByText(/已选择/)).toBeNull();

    await tick('问题2');
    expect(screen.getByText('已选择 1 项')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
    });
    expect(await screen.findByText('问题1')).toBeInTheDocument();
    expect(screen.queryByText(/已选择/)).toBeNull();
  });

  it('is cleared when the comment list switches between issue and book comments', async () => {
    await openList('/commentList', '评论1-1');
    await tick('评论1-1', '评论1-2');
    expect(screen.getByText('已选择 2 项')).toBeInTheDocument();

    await act(async () => {
      fireEvent.click(screen.getByText('书籍评论'));
    });
    expect(await screen.findByText('评论2-1')).toBeInTheDocument();
    expect(screen.queryByText(/已选择/)).toBeNull();
    expect(checkedRows()).toHaveLength(0);
  });

  it('names the count of the rows ticked on this page in the confirmation, and sends only those', async () => {
    net.handle = (req) => (req.method === 'POST' ? { status: 200, body: envelope({ done: 1 }) } : undefined);
    await openList('/issue', '问题1');
    await tick('问题1', '问题2');
    await goToPage(2);
    await screen.findByText('问题11');
    await tick('问题12');

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '批量删除' }));
    });
    expect(await screen.findByText('确定要删除选中的 1 条记录吗？')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(confirmButton(/^删\s*除$/));
    });
    expect(await screen.findByText('已删除 1 条记录')).toBeInTheDocument();
    expect(net.sent.find((r) => r.method === 'POST')?.body).toEqual({ action: 'delete', ids: [issues[11]._id] });
  });

  it('puts the bulk bar after the table header, with 取消选择 a button and the header checkbox named 全选', async () => {
    await openList('/issue', '问题1');
    const selectAll = screen.getByRole('checkbox', { name: '全选' });
    await act(async () => {
      fireEvent.click(selectAll);
    });
    expect(screen.getByText('已选择 10 项')).toBeInTheDocument();

    const bar = screen.getByRole('group', { name: '批量操作' });
    // DOCUMENT_POSITION_FOLLOWING: the bar comes after the header (and the rows) in the tab order.
    expect(selectAll.compareDocumentPosition(bar) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(rowOf('问题10').compareDocumentPosition(bar) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    await act(async () => {
      fireEvent.click(within(bar).getByRole('button', { name: '取消选择' }));
    });
    expect(screen.queryByText(/已选择/)).toBeNull();
    expect(checkedRows()).toHaveLength(0);
  });
});

describe('the address holds the list’s state', () => {
  it('follows the page, the page size and the filters, leaving the defaults out', async () => {
    await openList('/issue', '问题1');
    expect(history.location.search).toBe('');

    await goToPage(3);
    await screen.findByText('问题21');
    expect(history.location.search).toBe('?current=3');

    fireEvent.change(screen.getByLabelText('问答标题'), { target: { value: '问题2' } });
    await clickSearch();
    await waitFor(() => expect(history.location.search).toBe('?issueTitle=%E9%97%AE%E9%A2%982'));
  });

  it('opens on the page, page size and filters of the address', async () => {
    await openList('/issue?current=2&pageSize=20&issueTitle=%E9%97%AE%E9%A2%98', '问题21');

    const first = issueQueries()[0];
    expect([first.get('current'), first.get('pageSize'), first.get('issueTitle')]).toEqual(['2', '20', '问题']);
    expect(screen.getByLabelText('问答标题')).toHaveValue('问题');
    expect(screen.getByText('问答标题：问题')).toBeInTheDocument();
  });

  it('opens the comment list on the kind of the address', async () => {
    await openList('/commentList?commentType=2', '评论2-1');
    expect(net.sent.find((r) => r.url.startsWith('/api/comment/'))?.url).toMatch(/^\/api\/comment\/2\?/);
    expect(screen.getByRole('radio', { name: '书籍评论' })).toBeChecked();
  });
});

describe('active filters', () => {
  it('shows a filter given by a link as a tag naming the value, and searches again without it when removed', async () => {
    await openList(`/issue?issueStatus=false&typeId=${JS_TYPE}`, '问题1');
    expect(issueQueries()[0].get('issueStatus')).toBe('false');
    expect(screen.getByText('审核状态：待审核')).toBeInTheDocument();
    expect(await screen.findByText('问题分类：JavaScript')).toBeInTheDocument();

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '移除筛选「审核状态：待审核」' }));
    });
    await waitFor(() => expect(issueQueries().at(-1)?.has('issueStatus')).toBe(false));
    expect(issueQueries().at(-1)?.get('typeId')).toBe(JS_TYPE);
    await waitFor(() => expect(screen.queryByText('审核状态：待审核')).toBeNull());
    expect(history.location.search).toBe(`?typeId=${JS_TYPE}`);
  });

  it('is emptied by 重置 even when the address set it', async () => {
    await openList('/issue?issueStatus=false', '问题1');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
    });
    await waitFor(() => expect(issueQueries().at(-1)?.has('issueStatus')).toBe(false));
    await waitFor(() => expect(screen.queryByText('审核状态：待审核')).toBeNull());
    expect(history.location.search).toBe('');
  });
});

describe('list addresses', () => {
  it('leave out the defaults, the toolbar keyword and empty filters', () => {
    expect(listSearch({ current: 1, pageSize: 10, keyword: 'x', issueTitle: ' ', typeId: undefined })).toBe('');
    expect(listSearch({ current: 2, pageSize: 50, commentType: 2, commentContent: '好' })).toBe(
      '?current=2&pageSize=50&commentType=2&commentContent=%E5%A5%BD',
    );
  });

  it('read only the page sizes the lists offer', () => {
    expect(pageOf(new URLSearchParams('current=3&pageSize=20'))).toEqual({ current: 3, pageSize: 20 });
    expect(pageOf(new URLSearchParams('current=-1&pageSize=1000'))).toEqual({ current: 1, pageSize: 10 });
    expect(pageOf(new URLSearchParams('current=abc'))).toEqual({ current: 1, pageSize: 10 });
  });
});
