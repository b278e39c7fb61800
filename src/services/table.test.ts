import { pagedUrl } from '@/services/table';

describe('pagedUrl', () => {
  it('passes the search form values through as filters, after the paging', () => {
    expect(pagedUrl('/api/user', { nickname: 'ann', current: 2, pageSize: 20, enabled: 'true' })).toBe(
      '/api/user?current=2&pageSize=20&nickname=ann&enabled=true',
    );
  });

  it('drops untouched and blank fields, and trims the rest', () => {
    expect(pagedUrl('/api/book', { current: 1, pageSize: 10, bookTitle: '  ', typeId: undefined, x: null, y: ' a ' })).toBe(
      '/api/book?current=1&pageSize=10&y=a',
    );
  });

  it("leaves out ProTable's toolbar keyword, which no list query takes", () => {
    expect(pagedUrl('/api/issue', { current: 1, pageSize: 10, keyword: 'x' })).toBe('/api/issue?current=1&pageSize=10');
  });

  it("leaves paging the table did not send to the server's defaults", () => {
    expect(pagedUrl('/api/interview', { interviewTitle: 'js' })).toBe('/api/interview?interviewTitle=js');
  });
});
