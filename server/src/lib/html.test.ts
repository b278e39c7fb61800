import { AppError } from './errors';
import { requiredHtml, sanitizeHtml, sanitizeHtmlExplained } from './html';

describe('sanitizeHtml', () => {
  it('keeps what a rich editor produces', () => {
    const html = [
      '<h2>标题</h2><p style="text-align:center">居中 <strong>粗</strong> <em>斜</em> <u>下划线</u> <s>删除</s></p>',
      '<blockquote><p>引用</p></blockquote><ul><li>一</li></ul><ol start="3"><li>三</li></ol>',
      '<pre class="language-js"><code class="language-js">const a = 1 &lt; 2;</code></pre>',
      '<table><thead><tr><th colspan="2">头</th></tr></thead><tbody><tr><td>格</td><td>格</td></tr></tbody></table>',
      '<p><img src="/static/uploads/0123456789abcdef01234567.png" alt="图" /><br /><span>文字</span></p><hr />',
    ].join('');
    expect(sanitizeHtml(html)).toBe(html);
  });

  it.each([
    ['a script tag', '<p>a</p><script>alert(1)</script>', '<p>a</p>'],
    ['a script inside svg', '<svg><script>alert(1)</script></svg><p>b</p>', '<p>b</p>'],
    ['an iframe', '<iframe src="https://evil.example"></iframe><p>c</p>', '<p>c</p>'],
    ['an object and an embed', '<object data="x.swf"></object><embed src="x.swf" /><p>d</p>', '<p>d</p>'],
    ['a style element', '<style>body{display:none}</style><p>e</p>', '<p>e</p>'],
    ['event attributes', '<p onclick="alert(1)" onmouseover="alert(2)">f</p>', '<p>f</p>'],
    [
      'an image with an event attribute',
      '<img src="https://x.example/a.png" onerror="alert(1)" />',
      '<img src="https://x.example/a.png" />',
    ],
    ['a style with expression()', '<p style="width: expression(alert(1))">g</p>', '<p>g</p>'],
    [
      'a style with url(javascript:)',
      '<p style="background: url(javascript:alert(1)); text-align: right">h</p>',
      '<p style="text-align:right">h</p>',
    ],
    [
      'a class that is not a code language',
      '<p class="evil">i</p><code class="language-ts x">j</code>',
      '<p>i</p><code class="language-ts">j</code>',
    ],
    ['a form and its input', '<form action="https://evil.example"><input name="p" /></form><p>k</p>', '<p>k</p>'],
  ])('removes %s', (_what, input, expected) => {
    expect(sanitizeHtml(input)).toBe(expected);
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'java&#x09;script:alert(1)',
    'javascript&colon;alert(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'vbscript:msgbox(1)',
    '//evil.example/x',
    '/relative/path',
  ])('drops the link target %s but keeps the text', (href) => {
    expect(sanitizeHtml(`<a href="${href}">t</a>`)).toBe('<a rel="noopener noreferrer nofollow">t</a>');
  });

  it('keeps http, https and mailto links, forcing a safe rel and only _blank as target', () => {
    expect(sanitizeHtml('<a href="https://a.example/x?y=1&amp;z=2" target="_blank" rel="opener">a</a>')).toBe(
      '<a href="https://a.example/x?y=1&amp;z=2" target="_blank" rel="noopener noreferrer nofollow">a</a>',
    );
    expect(sanitizeHtml('<a href="http://b.example" target="_parent">b</a>')).toBe(
      '<a href="http://b.example" rel="noopener noreferrer nofollow">b</a>',
    );
    expect(sanitizeHtml('<a href="mailto:a@b.example">c</a>')).toBe(
      '<a href="mailto:a@b.example" rel="noopener noreferrer nofollow">c</a>',
    );
  });

  it.each([
    ['https://img.example/a.png', true],
    ['http://img.example/a.png', true],
    ['/static/uploads/0123456789abcdef01234567.webp', true],
    ['data:image/png;base64,iVBORw0KGgo=', true],
    ['data:image/webp;base64,UklGRg==', true],
    ['data:image/svg+xml;base64,PHN2Zz48c2NyaXB0PmFsZXJ0KDEpPC9zY3JpcHQ+PC9zdmc+', false],
    ['data:text/html;base64,PHNjcmlwdD4=', false],
    ['javascript:alert(1)', false],
    ['/etc/passwd', false],
    ['//evil.example/a.png', false],
  ])('an image from %s is kept: %s', (src, kept) => {
    const out = sanitizeHtml(`<p><img src="${src}" alt="x" /></p>`);
    expect(out).toBe(kept ? `<p><img src="${src}" alt="x" /></p>` : '<p></p>');
  });
});

describe('requiredHtml', () => {
  it('answers the clean HTML', () => {
    expect(requiredHtml('issueContent', '<p onclick="x()">ok</p>')).toBe('<p>ok</p>');
  });

  it('refuses content that was nothing but unsafe markup, naming the field', () => {
    expect(() => requiredHtml('issueContent', '<script>alert(1)</script>')).toThrow(AppError);
    expect(() => requiredHtml('issueContent', '<script>alert(1)</script>')).toThrow('问答描述（issueContent）不能为空');
  });

  it.each([
    ['an editor’s empty paragraph', '<p><br></p>'],
    ['spaces in a paragraph', '<p>   </p>'],
    ['no-break spaces', '<p>&nbsp;&nbsp;</p>'],
    ['an empty table', '<table></table>'],
    ['a link without text', '<p><a href="https://example.com"></a></p>'],
    ['a zero-width space', '\u200b'],
    ['invisible characters in markup', '<p>\u200b&zwnj;\u2060\u00ad\ufe0f</p>'],
  ])('refuses content that shows nothing: %s', (_what, html) => {
    expect(() => requiredHtml('commentContent', html)).toThrow('评论内容（commentContent）不能为空');
  });

  it.each([
    ['one character', '<p>a</p>', '<p>a</p>'],
    ['an escaped character', '<p>&lt;</p>', '<p>&lt;</p>'],
    ['an image alone', '<p><img src="/static/uploads/x.png"></p>', '<p><img src="/static/uploads/x.png" /></p>'],
    ['an emoji with its variation selector', '<p>❤️</p>', '<p>❤️</p>'],
  ])('keeps content that shows something: %s', (_what, html, clean) => {
    expect(requiredHtml('commentContent', html)).toBe(clean);
  });
});

describe('sanitizeHtmlExplained', () => {
  it('names nothing when the HTML was only written anew', () => {
    expect(sanitizeHtmlExplained('<p>一<br>二</p>')).toEqual({ clean: '<p>一<br />二</p>', removed: [] });
    expect(sanitizeHtmlExplained('<p style="text-align: center;">中</p>').removed).toEqual([]);
  });

  it('names each tag, attribute and link it removed', () => {
    const { clean, removed } = sanitizeHtmlExplained(
      '<div><p onclick="x()">a</p></div><script>alert(1)</script><a href="javascript:alert(1)" target="_top">b</a><img src="/static/a.png" onerror="y()">',
    );
    expect(clean).toBe('<p>a</p><a rel="noopener noreferrer nofollow">b</a><img src="/static/a.png" />');
    expect(removed).toEqual([
      '<div> 标签',
      '<p> 的 onclick 属性',
      '<script> 标签',
      '链接 javascript:alert(1)',
      '<a> 的 target 属性',
      '<img> 的 onerror 属性',
    ]);
  });

  it('answers the same clean HTML as sanitizeHtml', () => {
    const html = '<p onmouseover="x">a<br></p><iframe src="https://evil.example"></iframe>';
    expect(sanitizeHtmlExplained(html).clean).toBe(sanitizeHtml(html));
  });
});
