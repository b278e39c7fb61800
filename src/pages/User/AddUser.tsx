import FormPage, { PageForm } from '@/components/FormPage';
import { createUser } from '@/services/user';
import UserFormFields, { EMPTY_USER_FORM, toNewUser, type UserFormValues } from './components/UserForm';

export default function AddUser() {
  return (
    <FormPage
      title="添加用户"
      listPath="/user/userList"
      save={(values: UserFormValues) => createUser(toNewUser(values))}
      saved="添加用户成功"
    >
      {(onFinish) => (
        <PageForm initialValues={EMPTY_USER_FORM} submitText="确认新增" onFinish={onFinish}>
          <UserFormFields mode="add" />
        </PageForm>
      )}
    </FormPage>
  );
}
