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

    choose(file(1024, 'cover.png', 'image/png'));

    expect(await screen.findByText('裁剪图片', {}, { timeout: 5_000 })).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '取 消' }));
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(send).not.toHaveBeenCalled();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('takes an address typed instead of an upload', () => {
    const onChange = jest.fn();
    render(<ImageUpload value="" onChange={onChange} addressLabel="封面地址" />);

    fireEvent.change(screen.getByLabelText('封面地址'), { target: { value: '/static/uploads/65f1a2b3c4d5e6f708192d01.png' } });

    expect(onChange).toHaveBeenCalledWith('/static/uploads/65f1a2b3c4d5e6f708192d01.png');
  });
});
