import { useParams } from '@umijs/max';
import { useCallback } from 'react';
import FormPage, { PageForm } from '@/components/FormPage';
import { useLoaded } from '@/hooks/useLoaded';
import { getUser, updateUser } from '@/services/user';
import type { User } from '#contract/user';
import UserFormFields, { toUserChanges, toUserForm, type UserFormValues } from './components/UserForm';

export default function EditUser() {
  const { id = '' } = useParams<{ id: string }>();
  const [loaded, , reload] = useLoaded(useCallback(() => getUser(id), [id]));

  return (
    <FormPage
      title="编辑用户"
      listPath="/user/userList"
      record={{ loaded, backText: '返回用户列表', reload }}
      historyOf={{ entity: 'user', id }}
      unchanged={(values: UserFormValues, user: User) => Object.keys(toUserChanges(values, user)).length === 0}
      save={(values, user) => updateUser(user._id, { ...toUserChanges(values, user), version: user.version })}
      saved="信息修改成功"
    >
      {(onFinish, user) => (
        // The form reads its initial values once: another user needs a fresh form.
        <PageForm key={user._id} initialValues={toUserForm(user)} submitText="确认修改" onFinish={onFinish}>
          <UserFormFields mode="edit" />
        </PageForm>
      )}
    </FormPage>
  );
}
