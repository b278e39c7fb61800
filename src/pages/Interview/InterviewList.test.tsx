import { TestBrowser } from '@@/testBrowser';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { envelope, type FakeReply, type FakeRequest, installFakeNetwork, refusal } from '@/testing/fakeNetwork';
import type { Interview } from '@/types/api';

const JS = '65f1a2b3c4d5e6f708192b01';
const CSS = '65f1a2b3c4d5e6f708192b02';
const LONG_TITLE = '请说说浏览器的事件循环机制以及宏任务与微任务的执行顺序';

const interview = (n: number, interviewTitle: string, typeId = JS): Interview => ({
  _id: `65f1a2b3c4d5e6f708192e${String(n).padStart(2, '0')}`,
  interviewTitle,
  interviewContent: '<p>答案</p>',
  onShelfDate: 1_700_000_000_000,
  typeId,
});

let interviews: Interview[];
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
    return {
      status: 200,
      body: envelope([
        { _id: JS, typeName: 'JavaScript', createdAt: 1 },
        { _id: CSS, typeName: 'CSS', createdAt: 2 },
      ]),
    };
  }
  if (req.method === 'GET' && req.url.startsWith('/api/interview?')) {
    const query = new URLSearchParams(req.url.split('?')[1]);
    const pageSize = Number(query.get('pageSize'));
    return {
      status: 200,
      body: envelope({
        currentPage: Number(query.get('current')),
        eachPage: pageSize,
        count: 25,
        totalPage: Math.ceil(25 / pageSize),
        data: interviews,
      }),
    };
  }
  return refusal(404, '请求的资源不存在');
});

beforeEach(() => {
  interviews = [interview(1, '什么是闭包'), interview(2, LONG_TITLE, CSS)];
  handle = () => undefined;
  sent.length = 0;
  localStorage.setItem('adminToken', 'live-token');
});

const interviewQueries = () =>
  sent
    .filter((r) => r.method === 'GET' && r.url.startsWith('/api/interview?'))
    .map((r) => new URLSearchParams(r.url.split('?')[1]));

async function openInterviews() {
  render(<TestBrowser location={{ pathname: '/interview/interviewList' }} />);
  await screen.findByText('什么是闭包', {}, { timeout: 20_000 });
}

const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

describe('interview list', () => {
  it('asks for the first page of 10 without empty filters and shows serials, type tags and dates', async () => {
    await openInterviews();

    const [first] = interviewQueries();
    expect([...first.keys()]).toEqual(['current', 'pageSize']);
    expect(first.get('current')).toBe('1');
    expect(first.get('pageSize')).toBe('10');
    expect(document.querySelector('.ant-pro-table-list-toolbar-title')).toHaveTextContent('题目列表');
    const closure = within(rowOf('什么是闭包'));
    expect(closure.getByText('1')).toBeInTheDocument();
    await waitFor(() => expect(closure.getByText('JavaScript', { selector: '.ant-tag' })).toBeInTheDocument());
    expect(closure.getByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)).toBeInTheDocument();
  });

  it('cuts a long title to 22 characters and keeps the whole one in its tooltip', async () => {
    await openInterviews();

    const shown = screen.getByText(`${LONG_TITLE.slice(0, 22)}...`);
    expect(shown).toHaveAttribute('title', LONG_TITLE);
    expect(within(shown.closest('tr') as HTMLElement).getByText('CSS', { selector: '.ant-tag' })).toBeInTheDocument();
  });

  it('sends the title and type filters and the next page to the query, counting across pages', async () => {
    await openInterviews();

    fireEvent.change(screen.getByLabelText('题目名称'), { target: { value: '闭包' } });
    const typeField = screen.getByLabelText('题目分类').closest('.ant-select') as HTMLElement;
    fireEvent.mouseDown(typeField.querySelector('.ant-select-selector') as HTMLElement);
    fireEvent.click(await screen.findByText('CSS', { selector: '.ant-select-item-option-content' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    });
    await waitFor(() => expect(interviewQueries().at(-1)?.get('interviewTitle')).toBe('闭包'));
    expect(interviewQueries().at(-1)?.get('typeId')).toBe(CSS);

    await act(async () => {
      fireEvent.click(screen.getByTitle('2'));
    });
    await waitFor(() => expect(interviewQueries().at(-1)?.get('current')).toBe('2'));
    expect(interviewQueries().at(-1)?.get('interviewTitle')).toBe('闭包');
    expect(interviewQueries().at(-1)?.get('typeId')).toBe(CSS);
    await waitFor(() => expect(within(rowOf('什么是闭包')).getByText('11')).toBeInTheDocument());
  });

  it('deletes a question after the confirmation, says so and reloads the page', async () => {
    handle = (req) => (req.method === 'DELETE' ? { status: 200, body: envelope(null) } : undefined);
    await openInterviews();
    const before = interviewQueries().length;

    await act(async () => {
      fireEvent.click(within(rowOf('什么是闭包')).getByText('删除'));
    });
    expect(await screen.findByText('是否要删除该面试题？')).toBeInTheDocument();
    interviews = [interviews[1]];
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /删\s*除/ }));
    });

    expect(await screen.findByText('删除题目成功')).toBeInTheDocument();
    expect(sent.find((r) => r.method === 'DELETE')?.url).toBe(`/api/interview/${interview(1, '')._id}`);
    await waitFor(() => expect(interviewQueries().length).toBe(before + 1));
    await waitFor(() => expect(screen.queryByText('什么是闭包')).toBeNull());
  });

  it('shows the server’s refusal when a delete fails and keeps the row', async () => {
    handle = (req) => (req.method === 'DELETE' ? refusal(404, '面试题不存在') : undefined);
    await openInterviews();

    await act(async () => {
      fireEvent.click(within(rowOf('什么是闭包')).getByText('删除'));
    });
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: /删\s*除/ }));
    });

    expect(await screen.findByText('面试题不存在')).toBeInTheDocument();
    expect(screen.queryByText('删除题目成功')).toBeNull();
    expect(screen.getByText('什么是闭包')).toBeInTheDocument();
  });
});
