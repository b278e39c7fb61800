import type { ProColumns } from '@ant-design/pro-components';
import { PageContainer, ProTable } from '@ant-design/pro-components';
import { history, useAccess } from '@umijs/max';
import { Switch } from 'antd';
import { lazy, Suspense, useRef, useState } from 'react';
import { actionsWidth, COLUMN_WIDTH, dateColumn, indexColumn, oneLine } from '@/components/listColumns';
import { useListExport } from '@/components/ExportButton';
import { useListTable } from '@/hooks/useListTable';
import { AddButton, DeleteAction } from '@/components/ListActions';
import { Thumbnail } from '@/components/Thumbnail';
import { DEFAULT_AVATAR } from '@/constants';
import { usePendingIds } from '@/hooks/usePendingIds';
import { listUsers, removeUser, updateUser, userImpact } from '@/services/user';
import { staleSwitchMessage } from '@/components/ConflictDialog';
import { conflictOf, errorCodeOf } from '@/requestErrorConfig';
import { DEFAULT_PAGE_SIZE, type FilterKey } from '@/services/table';
import type { User, UserImpact, UserListQuery } from '#contract/user';
import { message } from '@/utils/feedback';
import { RowAction } from '@/components/RowAction';

// The details modal (Modal, Descriptions) is fetched the first time 详情 is clicked.
const UserDetail = lazy(() => import('./components/UserDetail'));

/** The confirmation loads, when opened, how many issues and comments go with the user. */
function DeleteUser({ user, onDeleted }: { user: User; onDeleted: () => unknown }) {
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
    <DeleteAction
      title={title}
      okButtonProps={{ disabled: impact === null }}
      onOpenChange={onOpenChange}
      remove={() => removeUser(user._id)}
      done="删除用户成功"
      onDeleted={onDeleted}
    />
  );
}

interface ColumnContext {
  canDelete: boolean;
  isPending: (id: string) => boolean;
  onToggle: (user: User, enabled: boolean) => void;
  onDetail: (user: User) => void;
  reload: () => unknown;
}

function userColumns(ctx: ColumnContext): ProColumns<User>[] {
  return [
    indexColumn(),
    { title: '登录账号', dataIndex: 'loginId' satisfies FilterKey<UserListQuery>, ...oneLine<User>((user) => user.loginId) },
    { title: '昵称', dataIndex: 'nickname' satisfies FilterKey<UserListQuery>, ...oneLine<User>((user) => user.nickname) },
    {
      title: '头像',
      dataIndex: 'avatar',
      width: 90,
      search: false,
      render: (_, user, index) => (
        <Thumbnail
          src={user.avatar || DEFAULT_AVATAR}
          lazy={index >= DEFAULT_PAGE_SIZE}
          fallback={DEFAULT_AVATAR}
          alt={`${user.nickname}的头像`}
          width={48}
          height={48}
          style={{ borderRadius: 4 }}
        />
      ),
    },
    { title: '积分', dataIndex: 'points', width: COLUMN_WIDTH.count, search: false },
    dateColumn('注册时间', 'registerDate'),
    {
      title: '账号状态',
      dataIndex: 'enabled' satisfies FilterKey<UserListQuery>,
      width: COLUMN_WIDTH.toggle,
      valueType: 'select',
      valueEnum: { true: { text: '已激活' }, false: { text: '已禁用' } },
      render: (_, user) => (
        <Switch
          size="small"
          aria-label={`${user.loginId} 账号状态`}
          checked={user.enabled}
          loading={ctx.isPending(user._id)}
          onChange={(enabled) => ctx.onToggle(user, enabled)}
        />
      ),
    },
    {
      title: '操作',
      valueType: 'option',
      key: 'option',
      width: actionsWidth('详情', '编辑', '删除'),
      render: (_, user) => [
        <RowAction key="detail" onClick={() => ctx.onDetail(user)}>
          详情
        </RowAction>,
        <RowAction key="edit" onClick={() => history.push(`/user/editUser/${user._id}`)}>
          编辑
        </RowAction>,
        ctx.canDelete ? <DeleteUser key="delete" user={user} onDeleted={ctx.reload} /> : null,
      ],
    },
  ];
}

export default function UserList() {
  const access = useAccess();
  const exporter = useListExport('user');
  const list = useListTable<User>({
    request: exporter.track(listUsers),
    batch: {
      resource: 'user',
      actions: [
        { action: 'enable', label: '启用' },
        { action: 'disable', label: '禁用' },
        // Deleting users takes their issues and comments: a super admin's, as one by one.
        ...(access.canSuperAdmin ? [{ action: 'delete' as const, label: '删除', danger: true }] : []),
      ],
    },
  });
  const [detail, setDetail] = useState<User | null>(null);
  // Once shown, the modal stays mounted so that it closes with its animation.
  const detailShown = useRef(false);
  if (detail) detailShown.current = true;
  const { isPending, whilePending } = usePendingIds();
  const { reload } = list;

  const onToggle = (user: User, enabled: boolean) =>
    whilePending(user._id, async () => {
      try {
        await updateUser(user._id, { enabled, version: user.version });
        message.success(enabled ? '用户状态已激活' : '该用户已被禁用');
        await reload();
      } catch (error) {
        // A conflict is not shown by the request layer: say who changed it and show it as it is now.
        if (errorCodeOf(error) === 'VERSION_CONFLICT') {
          message.warning(staleSwitchMessage(conflictOf(error), '该用户'));
          await reload();
        }
      }
    });

  return (
    // The table's header names the list; a page heading would say it a second time.
    <PageContainer title={false}>
      <ProTable<User>
        {...list.props(
          userColumns({
            canDelete: Boolean(access.canSuperAdmin),
            isPending,
            onToggle,
            onDetail: setDetail,
            reload,
          }),
        )}
        headerTitle="用户列表"
        toolBarRender={() => [
          exporter.button,
          <AddButton key="add" to="/user/addUser">
            添加用户
          </AddButton>,
        ]}
      />
      {detailShown.current && (
        <Suspense fallback={null}>
          <UserDetail user={detail} onClose={() => setDetail(null)} />
        </Suspense>
      )}
    </PageContainer>
  );
}
