import { JSDOM } from 'jsdom';
import { bearer, createTestContext, type TestContext } from '../harness';
import { expectRefusal, fillPath } from './support';
import { buildWorld, routeKey, schemaPart, validBody, worldParams, type World } from './world';

let t: TestContext;
let world: World;
beforeAll(async () => {
  t = await createTestContext();
  world = await buildWorld(t);
}, 120_000);
afterAll(() => t.close());

// Each hides something that runs, or that changes the page, inside content a rich editor could send.
const VECTORS: Record<string, string> = {
  'script element': '<script>alert(1)</script>',
  'script split by a nested tag': '<scr<script>ipt>alert(1)</script>',
  'img onerror': '<img src=x onerror=alert(1)>',
  'event on an allowed tag': '<p onclick="alert(1)" onmouseover=alert(2)>x</p>',
  'event on an unknown tag': '<x-tag onclick=alert(1)>x</x-tag><details open ontoggle=alert(1)>d</details>',
  'svg onload': '<svg onload=alert(1)><circle r=1 /></svg>',
  'script inside svg': '<svg><script>alert(1)</script></svg>',
  'math and style confusion (mXSS)':
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  'noscript title confusion (mXSS)': '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  'comment breaking out': '<!--><img src=x onerror=alert(1)>--><p>c</p>',
  template: '<template><script>alert(1)</script><img src=x onerror=alert(1)></template>',
  'javascript: link': '<a href="javascript:alert(1)">a</a>',
  'mixed-case javascript: link': '<a href="JaVaScRiPt:alert(1)">a</a>',
  'javascript: with a tab entity': '<a href="java&#x09;script:alert(1)">a</a>',
  'javascript: as decimal entities': '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">a</a>',
  'javascript: after spaces': '<a href="   javascript:alert(1)">a</a>',
  'vbscript: link': '<a href="vbscript:msgbox(1)">a</a>',
  'data: HTML link': '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">a</a>',
  'data: SVG image': '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  'javascript: image': '<img src="javascript:alert(1)">',
  'srcset with javascript:': '<img src="https://ok.example/a.png" srcset="javascript:alert(1) 2x">',
  iframe: '<iframe src="javascript:alert(1)"></iframe><iframe srcdoc="<script>alert(1)</script>"></iframe>',
  'object and embed': '<object data="javascript:alert(1)"></object><embed src="x.swf">',
  'form with javascript: action':
    '<form action="javascript:alert(1)"><button formaction="javascript:alert(2)">b</button><input autofocus onfocus=alert(3)></form>',
  'meta refresh': '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  'base href': '<base href="https://evil.example/">',
  'link stylesheet': '<link rel="stylesheet" href="https://evil.example/x.css">',
  'style element': '<style>@import "https://evil.example/x.css"; body{display:none}</style>',
  'style url(javascript:)': '<p style="background:url(javascript:alert(1))">s</p>',
  'style expression()': '<p style="width:expression(alert(1))">s</p>',
  'style covering the page': '<p style="position:fixed;top:0;left:0;width:100%;height:100%;z-index:9999;background:#fff">fake login</p>',
  'style on a span': '<span style="display:none">hidden</span>',
  'style escaping with comments': '<p style="text-align:center;/**/background:url(&quot;javascript:alert(1)&quot;)">s</p>',
  'background attribute': '<table background="javascript:alert(1)"><tr><td>t</td></tr></table>',
  'id and class clobbering': '<p id="root" class="ant-layout">x</p><a name="adminToken" id="adminToken">y</a>',
  'target without rel': '<a href="https://ok.example" target="_blank">k</a>',
  'xlink href': '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
};

const SAFE_TEXT = '<p>正文</p>';

/** The fields that hold HTML, found in the route schemas by their description. */
function htmlFields(): Array<{ key: string; field: string }> {
  return t.app.routeCatalog.flatMap((route) =>
    Object.entries(schemaPart(route, 'body')?.properties ?? {})
      .filter(([, prop]) => /HTML/.test((prop as { description?: string }).description ?? ''))
      .map(([field]) => ({ key: routeKey(route), field })),
  );
}

const ALLOWED_TAGS = new Set([
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'p',
  'br',
  'hr',
  'blockquote',
  'pre',
  'code',
  'ul',
  'ol',
  'li',
  'table',
  'caption',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'a',
  'img',
  'b',
  'i',
  'u',
  's',
  'del',
  'strong',
  'em',
  'span',
]);

/**
 * Parses stored HTML the way a browser does (jsdom follows the HTML standard's parser) and lists
 * everything in it that could run or take over the page.
 */
function liveParts(html: string): string[] {
  const { document } = new JSDOM(`<!doctype html><body>${html}</body>`).window;
  const problems: string[] = [];
  for (const element of document.body.querySelectorAll('*')) {
    const tag = element.tagName.toLowerCase();
    if (!ALLOWED_TAGS.has(tag)) problems.push(`<${tag}>`);
    for (const { name, value } of element.attributes) {
      const at = `<${tag} ${name}="${value}">`;
      if (name.startsWith('on')) problems.push(at);
      else if (name === 'style' && !/^\s*text-align\s*:\s*(left|right|center|justify)\s*;?\s*$/i.test(value)) problems.push(at);
      else if (name === 'href' && !/^(https?:|mailto:)/i.test(value)) problems.push(at);
      else if (name === 'src' && !/^(https?:\/\/|\/static\/|data:image\/(png|jpeg|gif|webp);base64,)/i.test(value)) problems.push(at);
      else if (['id', 'name', 'srcset', 'background', 'action', 'formaction', 'xlink:href', 'srcdoc', 'http-equiv'].includes(name))
        problems.push(at);
      else if (name === 'class' && !/^language-[\w-]+$/.test(value)) problems.push(at);
    }
    if (tag === 'a' && element.getAttribute('target') === '_blank' && !/noopener/.test(element.getAttribute('rel') ?? '')) {
      problems.push('<a target=_blank> without rel=noopener');
    }
  }
  return problems;
}

describe('stored HTML', () => {
  it('the HTML fields are the four the contract names, on every route that writes them', () => {
    expect(
      htmlFields()
        .map(({ key, field }) => `${key} ${field}`)
        .sort(),
    ).toEqual([
      'PATCH /api/book/:id bookIntro',
      'PATCH /api/interview/:id interviewContent',
      'PATCH /api/issue/:id issueContent',
      'POST /api/book bookIntro',
      'POST /api/comment commentContent',
      'POST /api/interview interviewContent',
      'POST /api/issue issueContent',
    ]);
  });

  it('the checker itself sees the live parts of every vector (so a pass below means something)', () => {
    for (const [name, html] of Object.entries(VECTORS)) {
      expect({ name, live: liveParts(html).length > 0 }).toEqual({ name, live: true });
    }
  });

  let serial = 0;
  describe.each(Object.keys(VECTORS))('%s', (vector) => {
    it('is stored and answered inert in every HTML field', async () => {
      for (const { key, field } of htmlFields()) {
        const route = t.app.routeCatalog.find((r) => routeKey(r) === key)!;
        const url = fillPath(route.url, worldParams(route.url, world));
        const payload = { ...validBody(key, world, `html${++serial}`), [field]: `${SAFE_TEXT}${VECTORS[vector]}` };
        const response = await t.inject({ method: route.method as 'POST', url, headers: bearer(world.rootToken), payload });
        expect({ key, status: response.statusCode }).toEqual({ key, status: route.method === 'POST' ? 201 : 200 });
        const answered = response.json().data[field] as string;
        expect({ key, live: liveParts(answered) }).toEqual({ key, live: [] });
        expect(answered).toContain('正文');
        // Read back as the screens do.
        const id = response.json().data._id as string;
        const readUrl = key.includes('/api/comment')
          ? `/api/comment/issuecomment/${world.issueId}?pageSize=100`
          : `${route.url.split('/:')[0]}/${id}`;
        const read = await t.inject({ method: 'GET', url: readUrl, headers: bearer(world.rootToken) });
        const stored = key.includes('/api/comment')
          ? (read.json().data.data as Array<Record<string, string>>).find((c) => c._id === id)![field]
          : (read.json().data[field] as string);
        expect({ key, live: liveParts(stored) }).toEqual({ key, live: [] });
      }
    });
  });

  it('content that is nothing but unsafe markup is refused, naming the field', async () => {
    for (const { key, field } of htmlFields()) {
      const route = t.app.routeCatalog.find((r) => routeKey(r) === key)!;
      const url = fillPath(route.url, worldParams(route.url, world));
      const payload = {
        ...validBody(key, world, `html${++serial}`),
        [field]: '<script>alert(1)</script><style>p{}</style><iframe></iframe>',
      };
      const response = await t.inject({ method: route.method as 'POST', url, headers: bearer(world.rootToken), payload });
      expectRefusal(response, 400);
      expect(response.json().msg).toContain(field);
    }
  });
});
