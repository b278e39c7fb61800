import { RecordReader } from './mapping';

/** What the import report says of an HTML field (docs/import.md): a fix only when something was taken out. */
function fixesOf(html: string): { value: string; fixes: string[] } {
  const reader = new RecordReader({ interviewContent: html });
  const value = reader.html('interviewContent', 500_000);
  return { value, fixes: reader.fixes };
}

describe('an HTML field in the import report', () => {
  it.each([
    ['<br> written anew as <br />', '<p>第一行<br>第二行</p>'],
    ['an unquoted attribute and a spaced style', '<p style="text-align: center;">居中</p><ol start=3><li>三</li></ol>'],
    ['entities written anew', '<p>a&nbsp;&lt; b &#39;c&#39;</p>'],
    ['a link whose rel is made safer', '<a href="https://example.com" rel="nofollow">链接</a>'],
  ])('%s: stored re-serialised, not reported', (_label, html) => {
    const { value, fixes } = fixesOf(html);
    expect(value).not.toBe(html);
    expect(fixes).toEqual([]);
  });

  it('a script, an onclick and a javascript: link are reported, each by name', () => {
    const { value, fixes } = fixesOf('<p onclick="steal()">正文<br></p><script>alert(1)</script><a href="javascript:alert(2)">点我</a>');
    expect(value).toBe('<p>正文<br /></p><a rel="noopener noreferrer nofollow">点我</a>');
    expect(fixes).toHaveLength(1);
    expect(fixes[0]).toMatch(/^题目内容（interviewContent）中的不安全 HTML 已净化：去掉了/);
    expect(fixes[0]).toContain('<script> 标签');
    expect(fixes[0]).toContain('<p> 的 onclick 属性');
    expect(fixes[0]).toContain('链接 javascript:alert(2)');
  });

  it('an image whose source could run script is reported with that source', () => {
    const { fixes } = fixesOf('<p>图<img src="javascript:alert(1)"></p>');
    expect(fixes).toHaveLength(1);
    expect(fixes[0]).toContain('图片 javascript:alert(1)');
  });
});
