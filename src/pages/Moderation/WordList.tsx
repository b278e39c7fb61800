import { DownloadOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import type { ProColumns } from '@ant-design/pro-components';
import { ProTable } from '@ant-design/pro-components';
import { useAccess } from '@umijs/max';
import { Button, Form, Input, type InputRef, Modal, Radio, Upload } from 'antd';
import { useRef, useState } from 'react';
import { DeleteAction } from '@/components/ListActions';
import { actionsWidth, dateColumn, indexColumn, oneLine } from '@/components/listColumns';
import { useListTable } from '@/hooks/useListTable';
import { addWord, exportWords, importWords, listWords, removeWord } from '@/services/moderation';
import type { FilterKey } from '@/services/table';
import type { CreateModerationWordBody, ModerationAction, ModerationWord, ModerationWordQuery } from '#contract/moderation';
import { MODERATION_WORD_MAX_LENGTH } from '#contract/values/moderation';
import { message } from '@/utils/feedback';
import { ActionTag, ACTION_LABELS, importSummary } from './labels';

const actionEnum = Object.fromEntries(Object.entries(ACTION_LABELS).map(([key, text]) => [key, { text }]));
const actionOptions = (Object.keys(ACTION_LABELS) as ModerationAction[]).map((value) => ({ value, label: ACTION_LABELS[value] }));

/** The file's text, read in the browser: the server takes the content, not a multipart upload. */
function readText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file, 'utf-8');
  });
}

function AddWordModal({ open, onClose, onAdded }: { open: boolean; onClose: () => void; onAdded: () => void }) {
  const [form] = Form.useForm<CreateModerationWordBody>();
  const [busy, setBusy] = useState(false);
  const input = useRef<InputRef>(null);
  const submit = async () => {
    // A refused form shows why at its fields: nothing to send, and no rejection left unhandled.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setBusy(true);
    try {
      await addWord({ word: values.word.trim(), action: values.action });
      message.success('添加敏感词成功');
      form.resetFields();
      onAdded();
    } catch {
      // Shown by the request layer (a duplicate: 该敏感词已存在); the dialog stays with what was typed.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title="添加敏感词"
      okText="添加"
      cancelText="取消"
      confirmLoading={busy}
      onOk={submit}
      onCancel={onClose}
      // The dialog takes the focus as it opens; the word's box gets it once it has opened.
      afterOpenChange={(opened) => opened && input.current?.focus()}
      destroyOnHidden
    >
      <Form form={form} name="moderation-word" layout="vertical" initialValues={{ action: 'hold' }} onFinish={submit}>
        <Form.Item
          name="word"
          label="敏感词"
          rules={[
            { required: true, whitespace: true, message: '请输入敏感词' },
            { max: MODERATION_WORD_MAX_LENGTH, message: `敏感词最多 ${MODERATION_WORD_MAX_LENGTH} 个字符` },
          ]}
        >
          <Input ref={input} placeholder="词或短语" />
        </Form.Item>
        <Form.Item name="action" label="动作" extra="拒绝：发布时拒绝；待审：审核通过后才可见；标记：照常发布，同时进入审核台">
          <Radio.Group options={actionOptions} optionType="button" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function ImportModal({ open, onClose, onImported }: { open: boolean; onClose: () => void; onImported: () => void }) {
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [mode, setMode] = useState<'merge' | 'replace'>('merge');
  const [busy, setBusy] = useState(false);
  const close = () => {
    setFile(null);
    setMode('merge');
    onClose();
  };
  const submit = async () => {
    if (!file) {
      message.warning('请选择要导入的文本文件');
      return;
    }
    setBusy(true);
    try {
      const result = await importWords({ text: file.text, mode });
      message.success(importSummary(result));
      close();
      onImported();
    } catch {
      // Shown by the request layer (导入文件第 N 行无法识别): nothing was changed, the dialog stays.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title="导入敏感词"
      okText="导入"
      cancelText="取消"
      confirmLoading={busy}
      onOk={submit}
      onCancel={close}
      destroyOnHidden
    >
      <p>文本文件（UTF-8），每行一个词，制表符或逗号后写 拒绝、待审 或 标记。文件有一行无法识别时，整个导入不做任何修改。</p>
      <Upload
        accept=".txt,text/plain"
        maxCount={1}
        showUploadList={false}
        beforeUpload={async (chosen) => {
          setFile({ name: chosen.name, text: await readText(chosen) });
          // Read here and sent as text on 导入: nothing is uploaded by the Upload itself.
          return Upload.LIST_IGNORE;
        }}
      >
        <Button icon={<UploadOutlined />}>选择文件</Button>
      </Upload>
      <p style={{ marginTop: 8 }}>{file ? `已选择：${file.name}` : '尚未选择文件'}</p>
      <Radio.Group
        aria-label="导入方式"
        value={mode}
        onChange={(event) => setMode(event.target.value)}
        options={[
          { value: 'merge', label: '合并：加入文件中的词' },
          { value: 'replace', label: '替换：文件成为整个词表' },
        ]}
      />
    </Modal>
  );
}

/** 敏感词: the word list, server-paged; adding, deleting, importing and exporting are a super admin's. */
export default function WordList() {
  const access = useAccess();
  const list = useListTable<ModerationWord>({ request: listWords });
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const { reload } = list;

  const onExport = async () => {
    setExporting(true);
    try {
      message.success(`已导出 ${await exportWords()}`);
    } catch {
      // The request layer has shown why.
    } finally {
      setExporting(false);
    }
  };

  const columns: ProColumns<ModerationWord>[] = [
    indexColumn(),
    {
      title: '敏感词',
      dataIndex: 'word' satisfies FilterKey<ModerationWordQuery>,
      ...oneLine<ModerationWord>((word) => word.word),
    },
    {
      title: '动作',
      dataIndex: 'action' satisfies FilterKey<ModerationWordQuery>,
      valueType: 'select',
      valueEnum: actionEnum,
      width: 96,
      render: (_, word) => <ActionTag action={word.action} />,
    },
    dateColumn<ModerationWord>('添加时间', 'createdAt'),
    ...(access.canSuperAdmin
      ? [
          {
            title: '操作',
            valueType: 'option',
            key: 'option',
            width: actionsWidth('删除'),
            render: (_, word) => [
              <DeleteAction
                key="delete"
                title={`确定要删除敏感词「${word.word}」吗？`}
                remove={() => removeWord(word._id)}
                done="删除敏感词成功"
                onDeleted={reload}
              />,
            ],
          } satisfies ProColumns<ModerationWord>,
        ]
      : []),
  ];

  const toolbar = access.canSuperAdmin
    ? [
        <Button key="add" type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
          添加敏感词
        </Button>,
        <Button key="import" icon={<UploadOutlined />} onClick={() => setImporting(true)}>
          导入
        </Button>,
        <Button key="export" icon={<DownloadOutlined />} loading={exporting} onClick={onExport}>
          导出
        </Button>,
      ]
    : [];

  return (
    <>
      <ProTable<ModerationWord> {...list.props(columns)} headerTitle="敏感词" toolBarRender={() => toolbar} />
      <AddWordModal
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={() => {
          setAdding(false);
          reload();
        }}
      />
      <ImportModal open={importing} onClose={() => setImporting(false)} onImported={reload} />
    </>
  );
}
