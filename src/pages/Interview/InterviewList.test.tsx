import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { envelope, refusal } from '@/testing/fakeNetwork';
import {
  clickSearch,
  confirmButton,
  CSS_TYPE,
  findConfirmButton,
  JS_TYPE,
  listScreenNetwork,
  openList,
  pageReply,
} from '@/testing/listScreen';
import type { Interview } from '#contract/interview';

const LONG_TITLE = '请说说浏览器的事件循环机制以及宏任务与微任务的执行顺序';

const interview = (n: number, interviewTitle: string, typeId = JS_TYPE): Interview => ({
  _id: `65f1a2b3c4d5e6f708192e${String(n).padStart(2, '0')}`,
  version: 1,
  interviewTitle,
  interviewContent: '<p>答案</p>',
  onShelfDate: 1_700_000_000_000,
  typeId,
});

let interviews: Interview[];
const net = listScreenNetwork((req) =>
  req.method === 'GET' && req.url.startsWith('/api/interview?') ? pageReply(req.url, interviews, 25) : undefined,
);
const { sent } = net;

beforeEach(() => {
  interviews = [interview(1, '什么是闭包'), interview(2, LONG_TITLE, CSS_TYPE)];
});

const interviewQueries = () => net.queriesTo('/api/interview');

const openInterviews = () => openList('/interview/interviewList', '什么是闭包');

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
    await clickSearch();
    await waitFor(() => expect(interviewQueries().at(-1)?.get('interviewTitle')).toBe('闭包'));
    expect(interviewQueries().at(-1)?.get('typeId')).toBe(CSS_TYPE);

    await act(async () => {
      fireEvent.click(screen.getByTitle('2'));
    });
    await waitFor(() => expect(interviewQueries().at(-1)?.get('current')).toBe('2'));
    expect(interviewQueries().at(-1)?.get('interviewTitle')).toBe('闭包');
    expect(interviewQueries().at(-1)?.get('typeId')).toBe(CSS_TYPE);
    await waitFor(() => expect(within(rowOf('什么是闭包')).getByText('11')).toBeInTheDocument());
  });

  it('deletes a question after the confirmation, says so and reloads the page', async () => {
    net.handle = (req) => (req.method === 'DELETE' ? { status: 200, body: envelope(null) } : undefined);
    await openInterviews();
    const before = interviewQueries().length;

    await act(async () => {
      fireEvent.click(within(rowOf('什么是闭包')).getByText('删除'));
    });
    expect(await screen.findByText('是否要删除该面试题？')).toBeInTheDocument();
    interviews = [interviews[1]];
    await act(async () => {
      fireEvent.click(confirmButton(/删\s*除/));
    });

    expect(await screen.findByText('删除题目成功')).toBeInTheDocument();
    expect(sent.find((r) => r.method === 'DELETE')?.url).toBe(`/api/interview/${interview(1, '')._id}`);
    await waitFor(() => expect(interviewQueries().length).toBe(before + 1));
    await waitFor(() => expect(screen.queryByText('什么是闭包')).toBeNull());
  });

  it('shows the server’s refusal when a delete fails and keeps the row', async () => {
    net.handle = (req) => (req.method === 'DELETE' ? refusal(404, '面试题不存在') : undefined);
    await openInterviews();

    await act(async () => {
      fireEvent.click(within(rowOf('什么是闭包')).getByText('删除'));
    });
    await act(async () => {
      fireEvent.click(await findConfirmButton(/删\s*除/));
    });

    expect(await screen.findByText('面试题不存在')).toBeInTheDocument();
    expect(screen.queryByText('删除题目成功')).toBeNull();
    expect(screen.getByText('什么是闭包')).toBeInTheDocument();
  });
});
