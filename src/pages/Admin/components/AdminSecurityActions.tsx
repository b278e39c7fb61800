import { DownOutlined } from '@ant-design/icons';
import { Dropdown, type MenuProps, Modal } from 'antd';
import { useCallback, useState } from 'react';
import { RowAction } from '@/components/RowAction';
import SessionTable from '@/components/SessionTable';
import { endAdminSessions, listAdminSessions, reset2fa } from '@/services/account';
import type { Admin } from '#contract/admin';
import { message } from '@/utils/feedback';

/**
 * A super admin's rarer actions on another admin's account (issue 13), under 「更多」 so that the
 * row keeps 编辑, 历史 and 删除 on one line: 登录设备 (see and end their sessions) and
 * 重置两步验证 (which also ends their sessions). One's own are in 个人设置.
 */
export function AdminMoreActions({ admin, onReset }: { admin: Admin; onReset: () => void }) {
  const [sessionsOpen, setSessionsOpen] = useState(false);
  const [modal, modalHolder] = Modal.useModal();
  const load = useCallback(() => listAdminSessions(admin._id), [admin._id]);
  const endAll = useCallback(() => endAdminSessions(admin._id), [admin._id]);

  const reset = async () => {
    try {
      await reset2fa(admin._id);
    } catch {
      return;
    }
    message.success('两步验证已重置，该管理员需要重新登录');
    onReset();
  };

  const items: MenuProps['items'] = [
    { key: 'sessions', label: '登录设备' },
    ...(admin.twoFactorEnabled ? [{ key: 'reset2fa', label: '重置两步验证', danger: true }] : []),
  ];
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'sessions') setSessionsOpen(true);
    // A menu item cannot hold a Popconfirm; the confirmation is a modal, its 确定 focused.
    else
      modal.confirm({
        title: '确定重置该管理员的两步验证？',
        content: '重置后该管理员的所有登录设备都会退出。',
        onOk: reset,
      });
  };

  return (
    <>
      {/* autoFocus: opened from the keyboard, the arrows walk the menu at once. The menu opens
          inside the page's <main>, not loose in <body>, outside every landmark. */}
      <Dropdown
        menu={{ items, onClick }}
        trigger={['click']}
        autoFocus
        getPopupContainer={(trigger) => trigger.closest('main') ?? document.body}
      >
        <RowAction>
          更多
          <DownOutlined />
        </RowAction>
      </Dropdown>
      {modalHolder}
      <Modal
        title={`${admin.nickname || admin.loginId} 的登录设备`}
        open={sessionsOpen}
        onCancel={() => setSessionsOpen(false)}
        footer={null}
        width={860}
        destroyOnHidden
      >
        <SessionTable load={load} endAll={endAll} endAllText="退出所有设备" />
      </Modal>
    </>
  );
}
