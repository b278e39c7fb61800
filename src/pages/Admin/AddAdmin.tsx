import { useEffect } from 'react';
import FormPage, { PageForm } from '@/components/FormPage';
import { useAdminStore } from '@/hooks/useAdminStore';
import { alreadyShown } from '@/services/api';
import AdminFormFields, { type AdminFormValues, EMPTY_ADMIN_FORM, toNewAdmin } from './components/AdminForm';

export default function AddAdmin() {
  const { adminList, init, add } = useAdminStore();

  // The new admin is appended to the store's list, which must hold the others first.
  useEffect(() => {
    if (adminList.length === 0) init().catch(alreadyShown);
  }, [adminList.length, init]);

  return (
    <FormPage
      title="添加管理员"
      listPath="/admin/adminList"
      save={(values: AdminFormValues) => add(toNewAdmin(values))}
      saved="添加管理员成功"
    >
      {(onFinish) => (
        <PageForm initialValues={EMPTY_ADMIN_FORM} submitText="确认新增" onFinish={onFinish}>
          <AdminFormFields mode="add" />
        </PageForm>
      )}
    </FormPage>
  );
}
