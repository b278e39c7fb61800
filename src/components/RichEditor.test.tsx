import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { envelope, type FakeReply, type FakeRequest, installFakeNetwork, refusal } from '@/testing/fakeNetwork';
import RichEditor from './RichEditor';

let answerUpload: (req: FakeRequest) => FakeReply;
const sent = installFakeNetwork((req) => {
  if (req.method === 'POST' && req.url === '/api/upload') return answerUpload(req);
  return refusal(404, '请求的资源不存在');
});

beforeEach(() => {
  sent.length = 0;
  answerUpload = () => ({ status: 200, body: envelope('/static/uploads/65f1a2b3c4d5e6f708192d01.png') });
  localStorage.setItem('adminToken', 'live-token');
});

/** The editable area, once the lazily loaded editor has arrived. */
async function editable(): Promise<HTMLElement> {
  return waitFor(
    () => {
      const element = document.querySelector<HTMLElement>('.ProseMirror[contenteditable="true"]');
      if (!element) throw new Error('editor not loaded yet');
      return element;
    },
    { timeout: 10_000 },
  );
}

const png = (bytes: number, name = 'shot.png', type = 'image/png') => new File([new Uint8Array(bytes)], name, { type });

function chooseFile(file: File) {
  const input = screen.getByLabelText<HTMLInputElement>('选择图片');
  fireEvent.change(input, { target: { files: [file] } });
}

describe('RichEditor', () => {
  it('shows the HTML it is given', async () => {
    render(<RichEditor value="<h2>闭包</h2><p>函数与其<strong>词法环境</strong></p>" />);

    const area = await editable();
    expect(area.querySelector('h2')).toHaveTextContent('闭包');
    expect(area.querySelector('p strong')).toHaveTextContent('词法环境');
  });

  it('reports what is typed as HTML', async () => {
    const onChange = jest.fn();
    render(<RichEditor value="" onChange={onChange} />);
    const area = await editable();

    // jsdom has no layout, so the click that `type` starts with maps to no text position and
    // ProseMirror would open a new paragraph: put the caret in the empty paragraph, as a real
    // click does, and type there.
    act(() => {
      area.focus();
      const caret = document.createRange();
      caret.setStart(area.querySelector('p')!, 0);
      caret.collapse(true);
      window.getSelection()!.removeAllRanges();
      window.getSelection()!.addRange(caret);
      document.dispatchEvent(new Event('selectionchange'));
    });
    await userEvent.type(area, '你好', { skipClick: true });

    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('<p>你好</p>'));
  });

  it('reports an emptied document as an empty string', async () => {
    const onChange = jest.fn();
    render(<RichEditor value="<p>x</p>" onChange={onChange} />);
    const area = await editable();

    await userEvent.type(area, '{Control>}a{/Control}{Backspace}');

    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(''));
  });

  it('turns the current paragraph into a code block with the code-block button', async () => {
    const onChange = jest.fn();
    render(<RichEditor value="<p>const a = 1;</p>" onChange={onChange} />);
    const area = await editable();

    fireEvent.click(screen.getByRole('button', { name: '代码块' }));

    const code = area.querySelector('pre > code');
    expect(code).toHaveTextContent('const a = 1;');
    // StarterKit keeps a paragraph after a closing code block, so the cursor can leave it.
    expect(onChange).toHaveBeenLastCalledWith(expect.stringMatching(/^<pre><code>const a = 1;<\/code><\/pre>/));
    expect(screen.getByRole('button', { name: '代码块' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('uploads a chosen image with the token and inserts the address the server answers', async () => {
    const onChange = jest.fn();
    render(<RichEditor value="<p>截图：</p>" onChange={onChange} />);
    const area = await editable();
    const file = png(1024);

    chooseFile(file);

    await waitFor(() => expect(area.querySelector('img')).toHaveAttribute('src', '/static/uploads/65f1a2b3c4d5e6f708192d01.png'));
    const [upload] = sent;
    expect(upload.method).toBe('POST');
    expect(upload.url).toBe('/api/upload');
    expect(upload.headers.Authorization).toBe('Bearer live-token');
    expect(upload.body).toBeInstanceOf(FormData);
    expect((upload.body as FormData).get('file')).toBeInstanceOf(File);
    expect(((upload.body as FormData).get('file') as File).name).toBe('shot.png');
    expect(onChange).toHaveBeenLastCalledWith(expect.stringContaining('<img src="/static/uploads/65f1a2b3c4d5e6f708192d01.png"'));
  });

  it('refuses a file over 2 MB before sending it', async () => {
    render(<RichEditor value="" />);
    await editable();

    chooseFile(png(2 * 1024 * 1024 + 1));

    expect(await screen.findByText('上传文件失败，请检查文件的大小，控制在 2MB 以内')).toBeInTheDocument();
    expect(sent).toHaveLength(0);
  });

  it('refuses a file that is not a PNG, JPEG, GIF or WebP image before sending it', async () => {
    render(<RichEditor value="" />);
    await editable();

    chooseFile(png(100, 'notes.txt', 'text/plain'));

    expect(await screen.findByText('只能上传 PNG、JPEG、GIF 或 WebP 图片')).toBeInTheDocument();
    expect(sent).toHaveLength(0);
  });

  it("shows the server's reason when it refuses the image and inserts nothing", async () => {
    answerUpload = () => refusal(415, '只能上传 PNG、JPEG、GIF 或 WebP 图片');
    render(<RichEditor value="" />);
    const area = await editable();

    chooseFile(png(1024, 'fake.png'));

    expect(await screen.findByText('只能上传 PNG、JPEG、GIF 或 WebP 图片')).toBeInTheDocument();
    expect(sent).toHaveLength(1);
    expect(area.querySelector('img')).toBeNull();
  });

  it('shows a value set later, as a form does once its record has loaded, without reporting it as a change', async () => {
    const onChange = jest.fn();
    let load: (html: string) => void = () => undefined;
    // biome-ignore lint/correctness/noComponentHookFactories: a component of this test only, defined once per test.
    function Form() {
      const [html, setHtml] = useState('');
      load = setHtml;
      return (
        <RichEditor
          value={html}
          onChange={(next) => {
            onChange(next);
            setHtml(next);
          }}
        />
      );
    }
    render(<Form />);
    const area = await editable();

    act(() => load('<p>后来加载的<em>介绍</em></p>'));

    await waitFor(() => expect(area.querySelector('p em')).toHaveTextContent('介绍'));
    expect(onChange).not.toHaveBeenCalled();

    await userEvent.type(area, '！');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(expect.stringContaining('！')));
    expect(area).toHaveTextContent('后来加载的介绍');
  });
});
