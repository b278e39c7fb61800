import { TestBrowser } from '@@/testBrowser';
import { history } from '@umijs/max';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { envelope, type FakeReply, type FakeRequest, installFakeNetwork, refusal } from '@/testing/fakeNetwork';
import type { Interview } from '#contract/interview';

const JS = '65f1a2b3c4d5e6f708192b01';
const interview: Interview = {
  _id: '65f1a2b3c4d5e6f708192e01',
  version: 1,
  interviewTitle: '什么是闭包',
  interviewContent:
    '<p>函数与其<strong>词法环境</strong></p><script>window.pwned = true</script><img src="x.png" alt="示意图" onerror="window.pwned = true">',
  onShelfDate: 1_700_000_000_000,
  typeId: JS,
};

let handle: (req: FakeRequest) => FakeReply | undefined;
installFakeNetwork((req) => {
  const special = handle(req);
  if (special) return special;
  if (req.url === '/api/admin/whoami') {
    return {
      status: 200,
      body: envelope({ _id: '65f1a2b3c4d5e6f708192a02', loginId: 'editor', nickname: '内容编辑', avatar: '', permission: 2 }),
    };
  }
  if (req.method === 'GET' && req.url === '/api/type') {
    return { status: 200, body: envelope([{ _id: JS, typeName: 'JavaScript', createdAt: 1 }]) };
  }
  if (req.method === 'GET' && req.url === `/api/interview/${interview._id}`) {
    return { status: 200, body: envelope(interview) };
  }
  if (req.method === 'GET' && req.url.startsWith('/api/interview?')) {
    return { status: 200, body: envelope({ currentPage: 1, eachPage: 10, count: 1, totalPage: 1, data: [interview] }) };
  }
  return refusal(404, '请求的资源不存在');
});

beforeEach(() => {
  handle = () => undefined;
  localStorage.setItem('adminToken', 'live-token');
});

async function openDetail(id: string) {
  render(<TestBrowser location={{ pathname: `/interview/interviewList/${id}` }} />);
}

describe('interview detail', () => {
  it('shows the title, the type tag and the answer’s HTML without scripts or event attributes', async () => {
    await openDetail(interview._id);

    expect(await screen.findByText('什么是闭包', { selector: 'h2' }, { timeout: 20_000 })).toBeInTheDocument();
    expect(await screen.findByText('JavaScript', { selector: '.ant-tag' })).toBeInTheDocument();
    const strong = screen.getByText('词法环境');
    expect(strong.tagName).toBe('STRONG');
    const content = strong.closest('p')?.parentElement as HTMLElement;
    expect(content.querySelector('script')).toBeNull();
    const image = screen.getByAltText('示意图');
    expect(content).toContainElement(image);
    expect(image).toHaveAttribute('src', 'x.png');
    expect(image).not.toHaveAttribute('onerror');
  });

  it('opens the edit page from the detail', async () => {
    await openDetail(interview._id);
    await screen.findByText('什么是闭包', { selector: 'h2' }, { timeout: 20_000 });

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /^(edit )?编\s*辑$/ }));
    });

    await waitFor(() => expect(history.location.pathname).toBe(`/interview/editInterview/${interview._id}`));
  });

  it('shows the server’s message for a question that does not exist, with the way back', async () => {
    const missing = '65f1a2b3c4d5e6f708192eff';
    handle = (req) => (req.url === `/api/interview/${missing}` ? refusal(404, '面试题不存在') : undefined);
    await openDetail(missing);

    expect(await screen.findByText('面试题不存在', { selector: '.ant-empty-description' }, { timeout: 20_000 })).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '返回题目列表' }));
    });
    await waitFor(() => expect(history.location.pathname).toBe('/interview/interviewList'));
  });
});
