import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { clickSearch, JS_TYPE, listScreenNetwork, openList, pageReply } from '@/testing/listScreen';
import { fileNameFrom } from '@/services/export';
import type { Interview } from '#contract/interview';

const interviews: Interview[] = [
  {
    _id: '65f1a2b3c4d5e6f708192e01',
    version: 1,
    interviewTitle: '什么是闭包',
    interviewContent: '<p>答</p>',
    onShelfDate: 1_700_000_000_000,
    typeId: JS_TYPE,
  },
];
const FILE = '题目列表-20261123.csv';
const net = listScreenNetwork((req) => {
  if (req.method === 'GET' && req.url.startsWith('/api/interview/export')) {
    return {
      status: 200,
      body: '\uFEFF题目名称,题目分类,上架日期\r\n',
      headers: { 'content-disposition': `attachment; filename="export-20261123.csv"; filename*=UTF-8''${encodeURIComponent(FILE)}` },
    };
  }
  if (req.method === 'GET' && req.url.startsWith('/api/interview?')) return pageReply(req.url, interviews, 1);
  return undefined;
});

let downloaded: string[];
beforeEach(() => {
  downloaded = [];
  URL.createObjectURL = jest.fn(() => 'blob:export');
  URL.revokeObjectURL = jest.fn();
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloaded.push(this.download);
  });
});
afterEach(() => jest.restoreAllMocks());

describe('导出', () => {
  it('exports what the current search shows: its filters, not its page, with the token', async () => {
    await openList('/interview/interviewList', '什么是闭包');
    fireEvent.change(screen.getByLabelText('题目名称'), { target: { value: '闭包' } });
    await clickSearch();
    // The search's own request is what the button remembers: wait until the table has sent it.
    await waitFor(() => expect(net.sent.some((r) => r.url.startsWith('/api/interview?') && r.url.includes('interviewTitle'))).toBe(true));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /导\s*出/ }));
    });
    await waitFor(() => expect(downloaded).toEqual([FILE]));
    const exported = net.sent.filter((r) => r.url.startsWith('/api/interview/export'));
    expect(exported).toHaveLength(1);
    expect(exported[0].url).toBe(`/api/interview/export?interviewTitle=${encodeURIComponent('闭包')}`);
    expect(exported[0].headers.Authorization).toBe('Bearer live-token');
    await screen.findByText(`已导出 ${FILE}`);
  });

  it('reads the Chinese file name from Content-Disposition (RFC 5987), else the plain one', () => {
    expect(fileNameFrom(`attachment; filename="a.csv"; filename*=UTF-8''${encodeURIComponent('用户列表-20261123.csv')}`)).toBe(
      '用户列表-20261123.csv',
    );
    expect(fileNameFrom('attachment; filename="a.csv"')).toBe('a.csv');
    expect(fileNameFrom(undefined)).toBeNull();
  });
});
