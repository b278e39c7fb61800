import { Modal, Popconfirm } from 'antd';
import { useCallback, useState } from 'react';
import SessionTable from '@/components/SessionTable';
import { endAdminSessions, listAdminSessions, reset2fa } from '@/services/account';
import type { Admin } from '../../../../contract/admin';
import { message } from '@/utils/feedback';

/**
 * A super admin's actions on another admin's account (issue 13): 登录设备 (see and end their
 * sessions) and 重置两步验证 (which also ends their sessions). One's own are in 个人设置.
 */
export function AdminSessionsAction({ admin }: { admin: Admin }) {
  const [open, setOpen] = useState(false);
  const load = useCallback(() => listAdminSessions(admin._id), [admin._id]);
  const endAll = useCallback(() => endAdminSessions(admin._id), [admin._id]);
  return (
    <>
      <a onClick={() => setOpen(true)}>登录设备</a>
      <Modal
        title={`${admin.nickname || admin.loginId} 的登录设备`}
        open={open}
        onCancel={() => setOpen(false)}
        footer={null}
        width={860}
        destroyOnHidden
      >
        <SessionTable load={load} endAll={endAll} endAllText="退出所有设备" />
      </Modal>
    </>
  );
}

export function Reset2faAction({ admin, onReset }: { admin: Admin; onReset: () => void }) {
  const reset = async () => {
    try {
      await reset2fa(admin._id);
    } catch {
      return;
    }
    message.success('两步验证已重置，该管理员需要重新登录');
    onReset();
  };
  return (
    <Popconfirm title="确定重置该管理员的两步验证？" description="重置后该管理员的所有登录设备都会退出。" onConfirm={reset}>
      <a>重置两步验证</a>
    </Popconfirm>
  );
}
