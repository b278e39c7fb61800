import type { ProColumns } from '@ant-design/pro-components';
import { PageContainer, ProTable } from '@ant-design/pro-components';
import { Button, Card, Form, Input, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { indexColumn, tableOptions } from '@/components/listColumns';
import { DeleteAction } from '@/components/ListActions';
import { useLocalPagination } from '@/hooks/useLocalPagination';
import { useTypeStore } from '@/hooks/useTypeStore';
import ConflictDialog from '@/components/ConflictDialog';
import { conflictOf } from '@/requestErrorConfig';
import { alreadyShown } from '@/services/api';
import type { VersionConflict } from '#contract/version';
import type { TypeRecord } from '#contract/type';
import { message } from '@/utils/feedback';

const DUPLICATE = '该类型已存在，请不要重复添加';

interface ColumnContext {
  serial: (index: number) => number;
  onRename: (type: TypeRecord, typeName: string) => void;
  remove: (id: string) => Promise<void>;
}

function typeColumns(ctx: ColumnContext): ProColumns<TypeRecord>[] {
  return [
    indexColumn(ctx.serial),
    {
      title: '分类名称',
      dataIndex: 'typeName',
      render: (_, type) => (
        <Typography.Text
          editable={{
            tooltip: '修改分类名称',
            onChange: (typeName) => ctx.onRename(type, typeName),
          }}
        >
          {type.typeName}
        </Typography.Text>
      ),
    },
    {
      title: '操作',
      valueType: 'option',
      key: 'option',
      width: 120,
      render: (_, type) => [
        // A type still in use is refused (409); the request layer shows the server's reason.
        <DeleteAction key="delete" title="你确定要删除？" remove={() => ctx.remove(type._id)} done="删除类型成功" />,
      ],
    },
  ];
}

export default function TypeList() {
  const { typeList, loading, init, add, remove, rename } = useTypeStore();
  const { pagination, serial } = useLocalPagination(typeList.length);
  const [form] = Form.useForm<{ typeName: string }>();
  const [adding, setAdding] = useState(false);
  // A rename refused with 409 VERSION_CONFLICT: what changed since, and the rename to send again.
  const [clash, setClash] = useState<{ conflict: VersionConflict; id: string; typeName: string }>();

  useEffect(() => {
    if (typeList.length === 0) init().catch(alreadyShown);
  }, [typeList.length, init]);

  /** Names differing only in case or surrounding spaces are the same type to a reader. */
  const taken = (typeName: string, exceptId?: string) =>
    typeList.some((type) => type._id !== exceptId && type.typeName.toLowerCase() === typeName.toLowerCase());

  const onAdd = async ({ typeName }: { typeName: string }) => {
    const name = typeName.trim();
    if (taken(name)) {
      message.warning(DUPLICATE);
      return;
    }
    setAdding(true);
    try {
      await add(name);
      message.success('新增类型成功');
      form.resetFields();
    } catch {
      // Shown by the request layer; the name stays in the input.
    } finally {
      setAdding(false);
    }
  };

  const onRename = async (type: TypeRecord, typeName: string) => {
    const name = typeName.trim();
    if (name === type.typeName) return;
    if (!name) {
      message.warning('分类名称不能为空');
      return;
    }
    if (taken(name, type._id)) {
      message.warning(DUPLICATE);
      return;
    }
    await send(type._id, name, type.version);
  };

  // Sent against the version the list showed, or, overwriting on purpose, the one a conflict reported.
  const send = async (id: string, typeName: string, version: number) => {
    try {
      await rename({ id, typeName, version });
      message.success('修改类型成功');
    } catch (error) {
      const conflict = conflictOf(error);
      if (conflict) setClash({ conflict, id, typeName });
      // Anything else is shown by the request layer; the old name stays.
    }
  };

  return (
    // The table's header names the list; a page heading would say it a second time.
    <PageContainer title={false}>
      <Card style={{ marginBottom: 16 }}>
        <Form form={form} layout="inline" onFinish={onAdd}>
          <Form.Item name="typeName" rules={[{ required: true, whitespace: true, message: '请填写新增类型' }]}>
            <Input aria-label="类型名称" placeholder="填写新增类型" maxLength={30} allowClear style={{ width: 280 }} />
          </Form.Item>
          <Form.Item>
            <Button type="primary" shape="round" htmlType="submit" loading={adding}>
              新增
            </Button>
          </Form.Item>
        </Form>
      </Card>
      <ProTable<TypeRecord>
        headerTitle="分类信息"
        rowKey="_id"
        columns={typeColumns({ serial, onRename, remove })}
        dataSource={typeList}
        loading={loading}
        search={false}
        pagination={pagination}
        options={{ ...tableOptions, reload: () => init().catch(alreadyShown) }}
      />
      <ConflictDialog
        conflict={clash?.conflict}
        mine={{ typeName: clash?.typeName }}
        onCancel={() => setClash(undefined)}
        onReload={() => {
          setClash(undefined);
          init().catch(alreadyShown);
        }}
        onOverwrite={() => {
          if (!clash) return;
          setClash(undefined);
          send(clash.id, clash.typeName, clash.conflict.currentVersion);
        }}
      />
    </PageContainer>
  );
}
