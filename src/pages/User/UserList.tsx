import { PlusOutlined } from '@ant-design/icons';
import type { ActionType, ProColumns } from '@ant-design/pro-components';
import { PageContainer, ProTable } from '@ant-design/pro-components';
import { history, useAccess } from '@umijs/max';
import { Button, Descriptions, Image, Modal, Popconfirm, Switch } from 'antd';
import { useRef, useState } from 'react';
import { DEFAULT_AVATAR } from '@/constants';
import { listUsers, removeUser, updateUser, userImpact } from '@/services/user';
import type { User, UserImpact } from '@/types/api';
import { message } from '@/utils/feedback';
import { formatDate } from '@/utils/format';

const orUnset = (text: string) => text || '未填写';

function UserDetail({ user, onClose }: { user: User | null; onClose: () => void }) {
  return (
    <Modal title="用户详情" open={user !== null} onCancel={onClose} footer={null} destroyOnClose>
      {user && (
        <Descriptions column={1} bordered size="small">
          <Descriptions.Item label="登录账号">{user.loginId}</Descriptions.Item>
          <Descriptions.Item label="头像">
            <Image
              src={user.avatar || DEFAULT_AVATAR}
              fallback={DEFAULT_AVATAR}
              alt={`${user.nickname}的头像`}
              width={64}
            />
          </Descriptions.Item>
          <Descriptions.Item label="邮箱">{orUnset(user.mail)}</Descriptions.Item>
          <Descriptions.Item label="QQ">{orUnset(user.qq)}</Descriptions.Item>
          <Descriptions.Item label="微信">{orUnset(user.wechat)}</Descriptions.Item>
          <Descriptions.Item label="个人简介">{orUnset(user.intro)}</Descriptions.Item>
          <Descriptions.Item label="注册时间">{formatDate(user.registerDate)}</Descriptions.Item>
          <Descriptions.Item label="上次登录">{formatDate(user.lastLoginDate)}</Descriptions.Item>
          <Descriptions.Item label="当前积分">{user.points}</Descriptions.Item>
        </Descriptions>
      )}
    </Modal>
  );
}

/** The confirmation loads, when opened, how many issues and comments go with the user. */
function DeleteUser({ user, onConfirm }: { user: User; onConfirm: () => Promise<void> }) {
  const [impact, setImpact] = useState<UserImpact | null>(null);
  const onOpenChange = (open: boolean) => {
    if (!open) return;
    setImpact(null);
    userImpact(user._id).then(setImpact, () => undefined);
  };
  const title = impact
    ? `删除该用户将同时删除其 ${impact.issues} 个问答和 ${impact.comments} 条评论，确定要删除吗？`
    : '正在统计该用户的问答和评论...';
  return (
    <Popconfirm
      title={title}
      okText="删除"
      cancelText="取消"
      okButtonProps={{ disabled: impact === null }}
      onOpenChange={onOpenChange}
      onConfirm={onConfirm}
    >
      <a>删除</a>
    </Popconfirm>
  );
}

export default function UserList() {
  const access = useAccess();
  const actionRef = useRef<ActionType>();
  const [paging, setPaging] = useState({ current: 1, pageSize: 10 });
  const [detail, setDetail] = useState<User | null>(null);
  const [switching, setSwitching] = useState<ReadonlySet<string>>(new Set());

  const onToggle = async (user: User, enabled: boolean) => {
    setSwitching((ids) => new Set(ids).add(user._id));
    try {
      await updateUser(user._id, { enabled });
      message.success(enabled ? '用户状态已激活' : '该用户已被禁用');
      await actionRef.current?.reload();
    } catch {
      // The global error handler has shown the server's message.
    } finally {
      setSwitching((ids) => {
        const rest = new Set(ids);
        rest.delete(user._id);
        return rest;
      });
    }
  };

  const onDelete = async (user: User) => {
    try {
      await removeUser(user._id);
      message.success('删除用户成功');
      await actionRef.current?.reload();
    } catch {
      // Shown by the global error handler.
    }
  };

  const columns: ProColumns<User>[] = [
    {
      title: '序号',
      key: 'serial',
      width: 72,
      align: 'center',
      search: false,
      render: (_, __, index) => (paging.current - 1) * paging.pageSize + index + 1,
    },
    { title: '登录账号', dataIndex: 'loginId' },
    { title: '昵称', dataIndex: 'nickname' },
    {
      title: '头像',
      dataIndex: 'avatar',
      search: false,
      render: (_, user) => (
        <Image
          src={user.avatar || DEFAULT_AVATAR}
          fallback={DEFAULT_AVATAR}
          alt={`${user.nickname}的头像`}
          width={48}
          height={48}
          style={{ objectFit: 'cover', borderRadius: 4 }}
        />
      ),
    },
    { title: '积分', dataIndex: 'points', search: false },
    {
      title: '注册时间',
      dataIndex: 'registerDate',
      search: false,
      render: (_, user) => formatDate(user.registerDate),
    },
    {
      title: '账号状态',
      dataIndex: 'enabled',
      valueType: 'select',
      valueEnum: { true: { text: '已激活' }, false: { text: '已禁用' } },
      render: (_, user) => (
        <Switch
          size="small"
          aria-label={`${user.loginId} 账号状态`}
          checked={user.enabled}
          loading={switching.has(user._id)}
          onChange={(enabled) => onToggle(user, enabled)}
        />
      ),
    },
    {
      title: '操作',
      valueType: 'option',
      key: 'option',
      render: (_, user) => [
        <a key="detail" onClick={() => setDetail(user)}>
          详情
        </a>,
        <a key="edit" onClick={() => history.push(`/user/editUser/${user._id}`)}>
          编辑
        </a>,
        access.canSuperAdmin ? (
          <DeleteUser key="delete" user={user} onConfirm={() => onDelete(user)} />
        ) : null,
      ],
    },
  ];

  return (
    <PageContainer>
      <ProTable<User>
        headerTitle="用户列表"
        rowKey="_id"
        actionRef={actionRef}
        columns={columns}
        request={(params) => {
          setPaging({ current: params.current ?? 1, pageSize: params.pageSize ?? 10 });
          return listUsers(params);
        }}
        pagination={{
          defaultPageSize: 10,
          pageSizeOptions: [10, 20, 50, 100],
          showSizeChanger: true,
          showQuickJumper: true,
        }}
        options={{ density: false, setting: false }}
        toolBarRender={() => [
          <Button
            key="add"
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => history.push('/user/addUser')}
          >
            添加用户
          </Button>,
        ]}
      />
      <UserDetail user={detail} onClose={() => setDetail(null)} />
    </PageContainer>
  );
}
