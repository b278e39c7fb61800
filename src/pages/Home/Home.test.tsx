import { TestBrowser } from '@@/testBrowser';
import { history } from '@umijs/max';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { envelope, installFakeNetwork, refusal } from '@/testing/fakeNetwork';

// With jest.mock in a file, Umi's transformer runs it through Babel's module transform before
// the types are stripped, and an imported name used as a type breaks that: types come inline.
type DailyCount = import('#contract/stats').DailyCount;
type Stats = import('#contract/stats').Stats;
type FakeReply = import('@/testing/fakeNetwork').FakeReply;
type FakeRequest = import('@/testing/fakeNetwork').FakeRequest;

// The charts draw on a canvas, which jsdom lacks: what the page hands them is what is checked.
const mockCharts = jest.fn((_props: { daily: DailyCount[] }) => <div>每日图表</div>);
jest.mock('@/pages/Home/components/DailyCharts', () => ({
  __esModule: true,
  default: (props: Parameters<typeof mockCharts>[0]) => mockCharts(props),
}));

const daily: DailyCount[] = Array.from({ length: 30 }, (_, i) => ({
  date: `2024-05-${String(i + 1).padStart(2, '0')}`,
  users: i % 3,
  issues: i % 5,
  comments: i,
}));

const stats: Stats = {
  counts: {
    admins: 3,
    users: 1234,
    books: 56,
    interviews: 78,
    issuesWaiting: 9,
    issuesApproved: 321,
    comments: 4567,
    types: 12,
  },
  daily,
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
  if (req.method === 'GET' && req.url === '/api/stats') return { status: 200, body: envelope(stats) };
  if (req.method === 'GET' && req.url === '/api/type') return { status: 200, body: envelope([]) };
  if (req.method === 'GET' && req.url.startsWith('/api/issue?')) {
    return { status: 200, body: envelope({ currentPage: 1, eachPage: 10, count: 0, totalPage: 0, data: [] }) };
  }
  return refusal(404, '请求的资源不存在');
});

beforeEach(() => {
  handle = () => undefined;
  sent.length = 0;
  mockCharts.mockClear();
  localStorage.setItem('adminToken', 'live-token');
});

const cardOf = (title: string) => screen.getByText(title, { selector: '.ant-statistic-title' }).closest('.ant-card') as HTMLElement;

async function openHome() {
  render(<TestBrowser location={{ pathname: '/home' }} />);
  await screen.findByText('1,234', {}, { timeout: 10_000 });
}

describe('home', () => {
  it('shows the totals from /api/stats on their cards', async () => {
    await openHome();

    expect(sent.filter((r) => r.url === '/api/stats')).toHaveLength(1);
    expect(cardOf('用户')).toHaveTextContent('1,234');
    expect(cardOf('书籍')).toHaveTextContent('56');
    expect(cardOf('面试题')).toHaveTextContent('78');
    expect(cardOf('待审核问答')).toHaveTextContent('9');
    expect(cardOf('评论')).toHaveTextContent('4,567');
    expect(cardOf('类型')).toHaveTextContent('12');
  });

  it('hands the last 30 days to the charts', async () => {
    await openHome();

    expect(await screen.findByText('每日图表')).toBeInTheDocument();
    expect(mockCharts).toHaveBeenLastCalledWith({ daily });
  });

  it('opens the issue list filtered to those waiting from the 「待审核问答」 card', async () => {
    await openHome();

    const link = cardOf('待审核问答').closest('a') as HTMLAnchorElement;
    expect(link).toHaveAttribute('href', '/issue?issueStatus=false');
    await act(async () => {
      fireEvent.click(link);
    });

    await waitFor(() => expect(history.location.pathname).toBe('/issue'));
    expect(history.location.search).toBe('?issueStatus=false');
    await waitFor(() => {
      const query = sent.filter((r) => r.url.startsWith('/api/issue?')).at(-1)?.url ?? '';
      expect(new URLSearchParams(query.split('?')[1]).get('issueStatus')).toBe('false');
    });
  });

  it('says why the numbers are missing when the statistics cannot be loaded', async () => {
    handle = (req) => (req.url === '/api/stats' ? refusal(503, '服务暂时不可用，请稍后重试') : undefined);
    render(<TestBrowser location={{ pathname: '/home' }} />);

    expect(await screen.findByText('统计数据加载失败：服务暂时不可用，请稍后重试', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(mockCharts).not.toHaveBeenCalled();
  });
});
