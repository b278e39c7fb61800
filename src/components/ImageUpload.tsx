import { PlusOutlined } from '@ant-design/icons';
import { Input, Space, Upload } from 'antd';
import type { UploadFile, UploadProps } from 'antd';
import { useState } from 'react';
import { isApiFailure } from '@/requestErrorConfig';
import { UPLOAD_FIELD, UPLOAD_MAX_BYTES, UPLOAD_TYPES, UPLOAD_URL } from '@/services/upload';
import { message } from '@/utils/feedback';
import { getToken } from '@/utils/session';

interface ImageUploadProps {
  /** The image's address, as stored in the record (e.g. /static/uploads/<id>.png). */
  value?: string;
  onChange?: (value: string) => void;
  /** Names the address field for assistive technology, e.g. 「头像地址」. */
  addressLabel?: string;
}

function uploadedPath(response: unknown): string | undefined {
  if (typeof response !== 'object' || response === null) return undefined;
  const { success, data } = response as { success?: unknown; data?: unknown };
  return success === true && typeof data === 'string' ? data : undefined;
}

/**
 * One image: uploaded through POST /api/upload (a picture card) or given as an address. A form
 * field control: its value is the address.
 */
export default function ImageUpload({ value, onChange, addressLabel = '图片地址' }: ImageUploadProps) {
  const [uploading, setUploading] = useState<UploadFile>();

  const fileList: UploadFile[] = uploading
    ? [uploading]
    : value
      ? [{ uid: value, name: value.split('/').pop() || value, status: 'done', url: value }]
      : [];

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    if (!UPLOAD_TYPES.includes(file.type)) {
      message.error('只能上传 PNG、JPEG、GIF 或 WebP 图片');
      return Upload.LIST_IGNORE;
    }
    if (file.size > UPLOAD_MAX_BYTES) {
      message.error('上传文件失败，请检查文件的大小，控制在 2MB 以内');
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
