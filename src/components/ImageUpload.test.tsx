// Umi's runtime first, as the app's entry loads it: the component's imports reach app.tsx, whose
// request config would otherwise be read before it is defined.
import '@umijs/max';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import ImageUpload from './ImageUpload';

// antd's Upload posts with its own XMLHttpRequest, not through the app's request client.
let send: jest.SpyInstance;
beforeEach(() => {
  send = jest.spyOn(XMLHttpRequest.prototype, 'send').mockImplementation(() => undefined);
  localStorage.setItem('adminToken', 'live-token');
});
afterEach(() => send.mockRestore());

const file = (bytes: number, name: string, type: string) => new File([new Uint8Array(bytes)], name, { type });
/** A file that begins as a PNG does (what the crop's first look checks), `bytes` long. */
const png = (bytes: number, name: string) => {
  const content = new Uint8Array(bytes);
  content.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new File([content], name, { type: 'image/png' });
};

function choose(chosen: File) {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [chosen] } });
}

describe('ImageUpload', () => {
  it('refuses a file that is not a PNG, JPEG, GIF or WebP image before cropping or sending it', async () => {
    const onChange = jest.fn();
    render(<ImageUpload onChange={onChange} />);

    choose(file(100, 'notes.pdf', 'application/pdf'));

    expect(await screen.findByText('只能上传 PNG、JPEG、GIF 或 WebP 图片')).toBeInTheDocument();
    expect(screen.queryByText('裁剪图片')).not.toBeInTheDocument();
    expect(send).not.toHaveBeenCalled();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('refuses an image over 2 MB before cropping or sending it', async () => {
    render(<ImageUpload />);

    choose(file(2 * 1024 * 1024 + 1, 'photo.jpg', 'image/jpeg'));

    expect(await screen.findByText('上传文件失败，请检查文件的大小，控制在 2MB 以内')).toBeInTheDocument();
    expect(screen.queryByText('裁剪图片')).not.toBeInTheDocument();
    expect(send).not.toHaveBeenCalled();
  });

  it('asks for a crop before uploading an acceptable image, and sends nothing when it is cancelled', async () => {
    const onChange = jest.fn();
    render(<ImageUpload value="" onChange={onChange} aspect={3 / 4} />);

    choose(png(1024, 'cover.png'));

    expect(await screen.findByText('裁剪图片', {}, { timeout: 5_000 })).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '取 消' }));
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(send).not.toHaveBeenCalled();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('opens no crop for a file named .png whose bytes are no image: it goes to the server, which says why', async () => {
    // The upload list previews the file it sends; jsdom has no object URLs.
    const createObjectURL = jest.fn(() => 'blob:preview');
    Object.assign(URL, { createObjectURL, revokeObjectURL: jest.fn() });
    render(<ImageUpload />);

    choose(new File(['just some text, not a picture'], 'fake.png', { type: 'image/png' }));

    await waitFor(() => expect(send).toHaveBeenCalledTimes(1));
    expect(screen.queryByText('裁剪图片')).not.toBeInTheDocument();
  });

  it('takes an address typed instead of an upload', () => {
    const onChange = jest.fn();
    render(<ImageUpload value="" onChange={onChange} addressLabel="封面地址" />);

    fireEvent.change(screen.getByLabelText('封面地址'), { target: { value: '/static/uploads/65f1a2b3c4d5e6f708192d01.png' } });

    expect(onChange).toHaveBeenCalledWith('/static/uploads/65f1a2b3c4d5e6f708192d01.png');
  });
});
