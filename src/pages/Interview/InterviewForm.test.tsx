import { TestBrowser } from '@@/testBrowser';
import { history } from '@umijs/max';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { envelope, installFakeNetwork, refusal } from '@/testing/fakeNetwork';

// A file with jest.mock goes through Babel without its TypeScript preset, which refuses imported
// names in type positions: the types come in as import types instead.
type FakeReply = import('@/testing/fakeNetwork').FakeReply;
type FakeRequest = import('@/testing/fakeNetwork').FakeRequest;
type Interview = import('#contract/interview').Interview;

// The editor (tiptap, loaded lazily) has its own tests; here a textarea holds the HTML.
jest.mock('@/components/RichEditor', () => ({
  __esModule: true,
  default: ({ value, onChange, placeholder }: { value?: string; onChange?: (html: string) => void; placeholder?: string }) => (
    <textarea
      aria-label="题目内容编辑器"
      placeholder={placeholder}
      value={value ?? ''}
      onChange={(event) => onChange?.(event.target.value)}
    />
  ),
}));

const JS = '65f1a2b3c4d5e6f708192b01';
const CSS = '65f1a2b3c4d5e6f708192b02';
const saved: Interview = {
  _id: '65f1a2b3c4d5e6f708192e01',
  version: 1,
  interviewTitle: '什么是闭包',
  interviewContent: '<p>函数与其词法环境</p>',
  onShelfDate: 1_700_000_000_000,
  typeId: JS,
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
    return {
      status: 200,
      body: envelope([
        { _id: JS, typeName: 'JavaScript', createdAt: 1 },
        { _id: CSS, typeName: 'CSS', createdAt: 2 },
      ]),
    };
  }
  if (req.method === 'GET' && req.url === `/api/interview/${saved._id}`) {
    return { status: 200, body: envelope(saved) };
  }
  if (req.method === 'GET' && req.url.startsWith('/api/interview?')) {
    return { status: 200, body: envelope({ currentPage: 1, eachPage: 10, count: 0, totalPage: 0, data: [] }) };
  }
  return refusal(404, '请求的资源不存在');
});

beforeEach(() => {
  handle = () => undefined;
  sent.length = 0;
  localStorage.setItem('adminToken', 'live-token');
});

async function open(path: string) {
  render(<TestBrowser location={{ pathname: path }} />);
  await screen.findByLabelText('题目标题', {}, { timeout: 20_000 });
}

/** The form item whose label is `label`. */
const fieldOf = (label: string) => screen.getByText(label, { selector: 'label' }).closest('.ant-form-item') as HTMLElement;

async function chooseType(name: string) {
  fireEvent.mouseDown(fieldOf('题目分类').querySelector('.ant-select-selector') as HTMLElement);
  fireEvent.click(await screen.findByText(name, { selector: '.ant-select-item-option-content' }));
}

async function submit(name: RegExp) {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
  });
}

describe('add interview', () => {
  it("shows the type select's placeholder 请选择题目所属分类 while no type is chosen", async () => {
    await open('/interview/addInterview');

    const placeholder = fieldOf('题目分类').querySelector('.ant-select-selection-placeholder');
    expect(placeholder).toHaveTextContent('请选择题目所属分类');
    expect(fieldOf('题目分类').querySelector('.ant-select-selection-item')).toBeNull();
  });

  it('asks for the title, the type and the answer before sending anything', async () => {
    await open('/interview/addInterview');

    await submit(/确认新增/);

    expect(await within(fieldOf('题目标题')).findByText('请输入题目标题')).toBeInTheDocument();
    // The error, not the select's placeholder of the same words.
    expect(within(fieldOf('题目分类')).getByText('请选择题目所属分类', { selector: '.ant-form-item-explain-error' })).toBeInTheDocument();
    expect(within(fieldOf('题目内容')).getByText('请输入题目解答')).toBeInTheDocument();
    expect(sent.some((r) => r.method === 'POST')).toBe(false);
  });

  it('does not take blanks or empty markup for a title or an answer', async () => {
    await open('/interview/addInterview');

    fireEvent.change(screen.getByLabelText('题目标题'), { target: { value: '   ' } });
    fireEvent.change(screen.getByLabelText('题目内容编辑器'), { target: { value: '<p> </p>' } });
    await chooseType('CSS');
    await submit(/确认新增/);

    expect(await within(fieldOf('题目标题')).findByText('请输入题目标题')).toBeInTheDocument();
    expect(within(fieldOf('题目内容')).getByText('请输入题目解答')).toBeInTheDocument();
    expect(within(fieldOf('题目分类')).queryByText('请选择题目所属分类', { selector: '.ant-form-item-explain-error' })).toBeNull();
    expect(sent.some((r) => r.method === 'POST')).toBe(false);
  });

  it('posts the trimmed title, the type and the HTML, says so and goes to the list', async () => {
    handle = (req) =>
      req.method === 'POST' && req.url === '/api/interview'
        ? { status: 201, body: envelope({ ...saved, interviewTitle: '事件循环', typeId: CSS }) }
        : undefined;
    await open('/interview/addInterview');

    fireEvent.change(screen.getByLabelText('题目标题'), { target: { value: '  事件循环 ' } });
    await chooseType('CSS');
    fireEvent.change(screen.getByLabelText('题目内容编辑器'), { target: { value: '<p>宏任务与微任务</p>' } });
    await submit(/确认新增/);

    expect(await screen.findByText('新增题目成功')).toBeInTheDocument();
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({
      interviewTitle: '事件循环',
      typeId: CSS,
      interviewContent: '<p>宏任务与微任务</p>',
    });
    await waitFor(() => expect(history.location.pathname).toBe('/interview/interviewList'));
  });

  it('stays on the form with what was typed when the server refuses', async () => {
    handle = (req) => (req.method === 'POST' ? refusal(400, '分类不存在') : undefined);
    await open('/interview/addInterview');

    fireEvent.change(screen.getByLabelText('题目标题'), { target: { value: '事件循环' } });
    await chooseType('JavaScript');
    fireEvent.change(screen.getByLabelText('题目内容编辑器'), { target: { value: '<p>答案</p>' } });
    await submit(/确认新增/);

    expect(await screen.findByText('分类不存在')).toBeInTheDocument();
    expect(screen.queryByText('新增题目成功')).toBeNull();
    expect(history.location.pathname).toBe('/interview/addInterview');
    expect(screen.getByLabelText('题目标题')).toHaveValue('事件循环');
  });
});

describe('edit interview', () => {
  it('loads the question into the form, PATCHes the edits, says so and goes to the list', async () => {
    handle = (req) => (req.method === 'PATCH' ? { status: 200, body: envelope({ ...saved, interviewTitle: '闭包与作用域' }) } : undefined);
    await open(`/interview/editInterview/${saved._id}`);

    expect(screen.getByLabelText('题目标题')).toHaveValue('什么是闭包');
    expect(screen.getByLabelText('题目内容编辑器')).toHaveValue('<p>函数与其词法环境</p>');
    await waitFor(() => expect(within(fieldOf('题目分类')).getByText('JavaScript')).toBeInTheDocument());

    fireEvent.change(screen.getByLabelText('题目标题'), { target: { value: '闭包与作用域' } });
    await chooseType('CSS');
    await submit(/确认修改/);

    expect(await screen.findByText('修改题目成功')).toBeInTheDocument();
    const patch = sent.find((r) => r.method === 'PATCH');
    expect(patch?.url).toBe(`/api/interview/${saved._id}`);
    expect(patch?.body).toEqual({
      interviewTitle: '闭包与作用域',
      typeId: CSS,
      interviewContent: '<p>函数与其词法环境</p>',
      version: 1,
    });
    await waitFor(() => expect(history.location.pathname).toBe('/interview/interviewList'));
  });

  it('shows the server’s message instead of a form for a question that does not exist', async () => {
    const missing = '65f1a2b3c4d5e6f708192eff';
    handle = (req) => (req.url === `/api/interview/${missing}` ? refusal(404, '面试题不存在') : undefined);
    render(<TestBrowser location={{ pathname: `/interview/editInterview/${missing}` }} />);

    expect(await screen.findByText('面试题不存在', { selector: '.ant-empty-description' }, { timeout: 20_000 })).toBeInTheDocument();
    expect(screen.queryByLabelText('题目标题')).toBeNull();
    expect(screen.getByRole('button', { name: '返回题目列表' })).toBeInTheDocument();
  });
});
