import type { ProColumns } from '@ant-design/pro-components';
import { PageContainer, ProTable } from '@ant-design/pro-components';
import { useModel } from '@umijs/max';
import { Image, Switch, Tag } from 'antd';
import { useEffect } from 'react';
import { actionsWidth, indexColumn, tableOptions, useActionsInView } from '@/components/listColumns';
import { AddButton, DeleteAction } from '@/components/ListActions';
import { DEFAULT_AVATAR } from '@/constants';
import { useAdminStore } from '@/hooks/useAdminStore';
import { useLocalPagination } from '@/hooks/useLocalPagination';
import { usePendingIds } from '@/hooks/usePendingIds';
import { alreadyShown } from '@/services/api';
import type { Admin } from '#contract/admin';
import { message } from '@/utils/feedback';
import { toInitialState } from '@/utils/session';
import HistoryButton from '@/components/HistoryDrawer';
import { AdminMoreActions } from './components/AdminSecurityActions';
import EditAdminModal from './components/EditAdminModal';

interface ColumnContext {
  selfId: string | undefined;
  serial: (index: number) => number;
  isPending: (id: string) => boolean;
  onToggle: (admin: Admin, enabled: boolean) => void;
  onSaved: (fresh: Admin) => void;
  remove: (id: string) => Promise<void>;
  /** Loads the list again (an admin restored from its history). */
  reload: () => unknown;
}

function adminColumns(ctx: ColumnContext): ProColumns<Admin>[] {
  return [
    indexColumn(ctx.serial),
    { title: '登录账号', dataIndex: 'loginId' },
    { title: '昵称', dataIndex: 'nickname' },
    {
      title: '头像',
      dataIndex: 'avatar',
      render: (_, admin) => (
        <Image
          src={admin.avatar || DEFAULT_AVATAR}
          fallback={DEFAULT_AVATAR}
          alt={`${admin.nickname}的头像`}
          width={48}
          height={48}
          style={{ objectFit: 'cover', borderRadius: 4 }}
        />
      ),
    },
    {
      title: '权限',
      dataIndex: 'permission',
      valueEnum: { 1: { text: '超级管理员' }, 2: { text: '普通管理员' } },
      render: (_, admin) =>
        admin.permission === 1 ? (
          // antd's orange text (#d46b08) on its orange background is 3.3:1; orange-8 reaches 5.1:1.
          <Tag color="orange" style={{ color: '#ad4e00' }}>
            超级管理员
          </Tag>
        ) : (
          <Tag color="blue">普通管理员</Tag>
        ),
    },
    {
      title: '账号状态',
      dataIndex: 'enabled',
      render: (_, admin) =>
        // No one may disable themselves: their own row says whose it is instead of a switch.
        admin._id === ctx.selfId ? (
          <Tag>当前账号</Tag>
        ) : (
          <Switch
            size="small"
            aria-label={`${admin.loginId} 账号状态`}
            checked={admin.enabled}
            loading={ctx.isPending(admin._id)}
            onChange={(enabled) => ctx.onToggle(admin, enabled)}
          />
        ),
    },
    {
      title: '操作',
      valueType: 'option',
      key: 'option',
      // 更多's arrow takes 18 px beside its two characters.
      width: actionsWidth('编辑', '历史', '删除', '更多') + 18,
      render: (_, admin) => {
        const self = admin._id === ctx.selfId;
        return [
          <EditAdminModal key="edit" admin={admin} self={self} onSaved={ctx.onSaved} />,
          <HistoryButton key="history" entity="admin" id={admin._id} onReverted={ctx.reload} link />,
          self ? null : <DeleteAction key="delete" title="你确定要删除？" remove={() => ctx.remove(admin._id)} done="该管理员已删除" />,
          // One's own sessions and two-step sign-in are in 个人设置.
          self ? null : <AdminMoreActions key="more" admin={admin} onReset={ctx.reload} />,
        ];
      },
    },
  ];
}

export default function AdminList() {
  const { setInitialState } = useModel('@@initialState');
  const { adminList, adminInfo, loading, init, edit, remove } = useAdminStore();
  const { pagination, serial } = useLocalPagination(adminList.length);
  const { isPending, whilePending } = usePendingIds();

  useEffect(() => {
    if (adminList.length === 0) init().catch(alreadyShown);
  }, [adminList.length, init]);

  const onSaved = (fresh: Admin) => {
    // Editing oneself changes the name and avatar in the header, and the model's adminInfo, too:
    // initialState owns the signed-in admin.
    if (fresh._id === adminInfo?._id) setInitialState(toInitialState(fresh));
  };

  const onToggle = (admin: Admin, enabled: boolean) =>
    whilePending(admin._id, async () => {
      try {
        await edit({ id: admin._id, changes: { enabled } });
        message.success(enabled ? '管理员状态已激活' : '该管理员已被禁用');
      } catch {
        // Shown by the request layer; the switch stays where it was.
      }
    });

  const actionsInView = useActionsInView<Admin>();
  const columns = adminColumns({
    selfId: adminInfo?._id,
    serial,
    isPending,
    onToggle,
    onSaved,
    remove,
    reload: () => init().catch(alreadyShown),
  });

  return (
    // The table's header names the list; a page heading would say it a second time.
    <PageContainer title={false}>
      <ProTable<Admin>
        headerTitle="管理员列表"
        rowKey="_id"
        columns={actionsInView(columns)}
        dataSource={adminList}
        loading={loading}
        search={false}
        // As wide as its content needs: a narrow screen scrolls the table inside its card, not the page.
        scroll={{ x: 'max-content' }}
        pagination={pagination}
        options={{ ...tableOptions, reload: () => init().catch(alreadyShown) }}
        toolBarRender={() => [
          <AddButton key="add" to="/admin/addAdmin">
            添加管理员
          </AddButton>,
        ]}
      />
    </PageContainer>
  );
}
