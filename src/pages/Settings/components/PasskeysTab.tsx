import { Alert, Button, Form, Input, Modal, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { InputRef } from 'antd';
import { ConfirmAction, RowAction } from '@/components/RowAction';
import { alreadyShown } from '@/services/api';
import { addPasskey, isBrowserRefusal, listPasskeys, removePasskey, renamePasskey } from '@/services/passkey';
import { message } from '@/utils/feedback';
import { formatDate } from '@/utils/format';
import { type Passkey, PASSKEY_NAME_MAX } from '#contract/passkey';
import { PASSKEYS_HERE_MESSAGES, passkeysHere } from '@/utils/passkeyHere';

/** What the name dialog is for: a new passkey, or renaming one. */
type Editing = { kind: 'add' } | { kind: 'rename'; passkey: Passkey } | null;

/** 通行密钥: this admin's passkeys (sign in without password, captcha and code); add, rename, remove. */
export default function PasskeysTab() {
  const [passkeys, setPasskeys] = useState<Passkey[]>([]);
  const [loading, setLoading] = useState(true);
  const [editing, setEditing] = useState<Editing>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<{ name: string }>();
  const nameInput = useRef<InputRef>(null);
  const here = passkeysHere();
  const supported = here === 'ok';

  const reload = useCallback(() => {
    setLoading(true);
    return listPasskeys()
      .then(setPasskeys)
      .catch(alreadyShown)
      .finally(() => setLoading(false));
  }, []);

  useEffect(() => {
    reload();
  }, [reload]);

  const open = (next: Exclude<Editing, null>) => setEditing(next);

  const save = async ({ name }: { name: string }) => {
    if (!editing) return;
    setSaving(true);
    try {
      if (editing.kind === 'add') {
        await addPasskey(name.trim());
        message.success('通行密钥已添加');
      } else {
        await renamePasskey(editing.passkey._id, name.trim());
        message.success('通行密钥已重命名');
      }
      setEditing(null);
      await reload();
    } catch (error) {
      // The server's refusals are shown by the request layer; the browser's are told here.
      if (isBrowserRefusal(error)) message.error('没有完成通行密钥的创建（已取消或超时）');
    }
    setSaving(false);
  };

  const remove = async (passkey: Passkey) => {
    try {
      await removePasskey(passkey._id);
    } catch {
      return;
    }
    message.success('通行密钥已删除');
    await reload();
  };

  const columns: ColumnsType<Passkey> = [
    { title: '名称', dataIndex: 'name' },
    { title: '添加时间', dataIndex: 'createdAt', render: (ms: number) => formatDate(ms) },
    { title: '最近使用', dataIndex: 'lastUsedAt', render: (ms: number | null) => (ms === null ? '从未使用' : formatDate(ms)) },
    {
      title: '操作',
      key: 'action',
      render: (_, passkey) => (
        <Space size={0} wrap>
          <RowAction onClick={() => open({ kind: 'rename', passkey })} aria-label={`重命名 ${passkey.name}`}>
            重命名
          </RowAction>
          <ConfirmAction
            label="删除"
            danger
            focus="cancel"
            okText="删除"
            title={`确定删除通行密钥「${passkey.name}」？删除后不能再用它登录。`}
            onConfirm={() => remove(passkey)}
          />
        </Space>
      ),
    },
  ];

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        通行密钥保存在本机或安全密钥中，用指纹、面容或 PIN 解锁；登录时选择「使用通行密钥登录」，不需要密码、验证码和动态验证码。
      </Typography.Paragraph>
      {here === 'ok' ? null : <Alert type="warning" showIcon message={PASSKEYS_HERE_MESSAGES[here]} />}
      <Button type="primary" disabled={!supported} onClick={() => open({ kind: 'add' })}>
        添加通行密钥
      </Button>
      <Table<Passkey>
        rowKey="_id"
        size="middle"
        columns={columns}
        dataSource={passkeys}
        loading={loading}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: '还没有通行密钥' }}
      />
      <Modal
        title={editing?.kind === 'rename' ? '重命名通行密钥' : '添加通行密钥'}
        open={editing !== null}
        okText={editing?.kind === 'rename' ? '保存' : '下一步'}
        cancelText="取消"
        confirmLoading={saving}
        onOk={() => form.submit()}
        onCancel={() => setEditing(null)}
        // The dialog takes the focus as it opens; the name field is what the keyboard wants.
        afterOpenChange={(opened) => opened && nameInput.current?.focus()}
        destroyOnHidden
      >
        {/* Made anew at each opening (destroyOnHidden): it starts from the passkey's name or empty. */}
        <Form
          form={form}
          layout="vertical"
          onFinish={save}
          preserve={false}
          initialValues={{ name: editing?.kind === 'rename' ? editing.passkey.name : '' }}
        >
          <Form.Item
            name="name"
            label="名称"
            extra={editing?.kind === 'add' ? '例如「办公室电脑」「黄色安全密钥」，便于以后辨认' : undefined}
            rules={[
              { required: true, whitespace: true, message: '请输入名称' },
              { max: PASSKEY_NAME_MAX, message: `名称不能超过 ${PASSKEY_NAME_MAX} 个字符` },
            ]}
          >
            <Input ref={nameInput} maxLength={PASSKEY_NAME_MAX} placeholder="请输入名称" />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
