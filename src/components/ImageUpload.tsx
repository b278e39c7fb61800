import { PlusOutlined } from '@ant-design/icons';
import { Input, Space, Upload } from 'antd';
import type { UploadFile, UploadProps } from 'antd';
import ImgCrop from 'antd-img-crop';
import { useState } from 'react';
import { isApiFailure } from '@/requestErrorConfig';
import { imageRefusal, UPLOAD_FIELD, UPLOAD_TYPES, UPLOAD_URL } from '@/services/upload';
import { message } from '@/utils/feedback';
import { getToken } from '@/utils/session';

interface ImageUploadProps {
  /** The image's address, as stored in the record (e.g. /static/uploads/<id>.png). */
  value?: string;
  onChange?: (value: string) => void;
  /** Names the address field for assistive technology, e.g. 「头像地址」. */
  addressLabel?: string;
  /** Width / height of the crop made before uploading: 1 for avatars, 3 / 4 for book covers. */
  aspect?: number;
}

function uploadedPath(response: unknown): string | undefined {
  if (typeof response !== 'object' || response === null) return undefined;
  const { success, data } = response as { success?: unknown; data?: unknown };
  return success === true && typeof data === 'string' ? data : undefined;
}

// Only a file the server would take is worth cropping; any other goes straight to the check
// below or to the server, which refuses it with the reason. A file named .png whose bytes are no
// image would open the crop dialog on an empty canvas: its first bytes are looked at first.
const worthCropping = async (file: File) => imageRefusal(file) === undefined && looksLikeImage(await firstBytes(file, 12));

/** The first `count` bytes of a file, through FileReader (which the tests' jsdom has too, unlike Blob.arrayBuffer). */
function firstBytes(file: File, count: number): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(file.slice(0, count));
  });
}

/** PNG, JPEG, GIF or WebP by their first bytes (what the server judges an upload by). */
function looksLikeImage(head: ArrayBuffer): boolean {
  const b = new Uint8Array(head);
  const ascii = (from: number, to: number) => String.fromCharCode(...b.slice(from, to));
  return (
    (b[0] === 0x89 && ascii(1, 4) === 'PNG') ||
    (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) ||
    ascii(0, 4) === 'GIF8' ||
    (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP')
  );
}

/**
 * One image: cropped, then uploaded through POST /api/upload (a picture card), or given as an
 * address. A form field control: its value is the address.
 */
export default function ImageUpload({ value, onChange, addressLabel = '图片地址', aspect = 1 }: ImageUploadProps) {
  const [uploading, setUploading] = useState<UploadFile>();

  const fileList: UploadFile[] = uploading
    ? [uploading]
    : value
      ? [{ uid: value, name: value.split('/').pop() || value, status: 'done', url: value }]
      : [];

  // Runs on the cropped file, the one that is sent (or on a refused original, never cropped).
  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    const refusal = imageRefusal(file);
    if (refusal) {
      message.error(refusal);
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const handleChange: UploadProps['onChange'] = ({ file }) => {
    if (file.status === 'uploading') {
      setUploading(file);
      return;
    }
    setUploading(undefined);
    if (file.status === 'done') {
      const path = uploadedPath(file.response);
      if (path) onChange?.(path);
      else message.error('上传失败，请重试');
    } else if (file.status === 'error') {
      message.error(isApiFailure(file.response) ? file.response.msg : '上传失败，请检查网络后重试');
    }
  };

  const token = getToken();

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <ImgCrop
        aspect={aspect}
        rotationSlider
        showReset
        resetText="重置"
        modalTitle="裁剪图片"
        modalOk="确定"
        modalCancel="取消"
        beforeCrop={worthCropping}
      >
        <Upload
          name={UPLOAD_FIELD}
          action={UPLOAD_URL}
          headers={token ? { Authorization: `Bearer ${token}` } : undefined}
          accept={UPLOAD_TYPES.join(',')}
          listType="picture-card"
          maxCount={1}
          fileList={fileList}
          beforeUpload={beforeUpload}
          onChange={handleChange}
          onRemove={() => onChange?.('')}
          showUploadList={{ showPreviewIcon: false }}
        >
          {fileList.length === 0 && (
            <div>
              <PlusOutlined />
              <div style={{ marginTop: 8 }}>上传图片</div>
            </div>
          )}
        </Upload>
      </ImgCrop>
      <Input
        aria-label={addressLabel}
        value={value}
        onChange={(event) => onChange?.(event.target.value)}
        placeholder="或直接填写图片地址"
        allowClear
      />
    </Space>
  );
}
