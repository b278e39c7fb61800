import { ModalForm } from '@ant-design/pro-components';
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

  const onFinish = async (values: AdminFormValues) => {
    const changes = toAdminChanges(values, admin);
    if (Object.keys(changes).length === 0) {
      message.info('没有需要保存的修改');
      return true;
    }
    let fresh: Admin;
    try {
      fresh = await edit({ id: admin._id, changes });
    } catch {
      // Shown by the request layer; the modal stays open with what was typed.
      return false;
    }
    message.success('信息修改成功');
    onSaved(fresh);
    return true;
  };

  return (
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
  );
}
