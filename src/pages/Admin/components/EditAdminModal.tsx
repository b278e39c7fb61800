import { ModalForm } from '@ant-design/pro-components';
import { useState } from 'react';
import ConflictDialog from '@/components/ConflictDialog';
import { conflictOf } from '@/requestErrorConfig';
import type { VersionConflict } from '#contract/version';
import { useAdminStore } from '@/hooks/useAdminStore';
import type { Admin } from '#contract/admin';
import { message } from '@/utils/feedback';
import AdminFormFields, { type AdminFormValues, toAdminChanges } from './AdminForm';
import { RowAction } from '@/components/RowAction';

interface EditAdminModalProps {
  admin: Admin;
  /** The signed-in admin's own row. */
  self: boolean;
  onSaved: (fresh: Admin) => void;
}

export default function EditAdminModal({ admin, self, onSaved }: EditAdminModalProps) {
  const { edit } = useAdminStore();
  // A save refused with 409 VERSION_CONFLICT: what changed since, and the change to send again.
  const [clash, setClash] = useState<{ conflict: VersionConflict; changes: Record<string, unknown> }>();

  const send = async (changes: ReturnType<typeof toAdminChanges>, version: number) => {
    let fresh: Admin;
    try {
      fresh = await edit({ id: admin._id, changes: { ...changes, version } });
    } catch (error) {
      const conflict = conflictOf(error);
      if (conflict) setClash({ conflict, changes });
      // Otherwise shown by the request layer; the modal stays open with what was typed.
      return false;
    }
    message.success('信息修改成功');
    onSaved(fresh);
    return true;
  };

  const onFinish = async (values: AdminFormValues) => {
    const changes = toAdminChanges(values, admin);
    if (Object.keys(changes).length === 0) {
      message.info('没有需要保存的修改');
      return true;
    }
    return send(changes, admin.version);
  };

  return (
    <>
      <ConflictDialog
        conflict={clash?.conflict}
        mine={clash?.changes ?? {}}
        onCancel={() => setClash(undefined)}
        onReload={() => {
          setClash(undefined);
          onSaved({ ...admin, ...(clash?.conflict.current as Partial<Admin>) });
        }}
        onOverwrite={() => {
          const pending = clash;
          setClash(undefined);
          if (pending) void send(pending.changes as ReturnType<typeof toAdminChanges>, pending.conflict.currentVersion);
        }}
      />
      <ModalForm<AdminFormValues>
        title="修改管理员信息"
        trigger={<RowAction>编辑</RowAction>}
        layout="horizontal"
        labelCol={{ span: 5 }}
        wrapperCol={{ span: 17 }}
        initialValues={{
          loginId: admin.loginId,
          loginPwd: '',
          nickname: admin.nickname,
          permission: admin.permission,
          avatar: admin.avatar,
        }}
        modalProps={{ destroyOnHidden: true }}
        submitter={{ searchConfig: { submitText: '修改', resetText: '取消' } }}
        onFinish={onFinish}
      >
        <AdminFormFields mode="edit" permissionLocked={self} ownAccount={self} />
      </ModalForm>
    </>
  );
}
