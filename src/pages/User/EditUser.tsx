import { PageContainer, ProForm } from '@ant-design/pro-components';
import { history, useParams } from '@umijs/max';
import { Card, Space } from 'antd';
import { useCallback } from 'react';
import LoadFailed from '@/components/LoadFailed';
import { useLoaded } from '@/hooks/useLoaded';
import { getUser, updateUser } from '@/services/user';
import type { User } from '../../../contract/user';
import { message } from '@/utils/feedback';
import UserFormFields, { toUserChanges, toUserForm, type UserFormValues } from './components/UserForm';

const LIST_PATH = '/user/userList';

function EditForm({ user }: { user: User }) {
  const onFinish = async (values: UserFormValues) => {
    const changes = toUserChanges(values, user);
    if (Object.keys(changes).length === 0) {
      message.info('没有需要保存的修改');
      return;
    }
    try {
      await updateUser(user._id, changes);
    } catch {
      // The global error handler has shown the server's message; the form keeps what was typed.
      return;
    }
    message.success('信息修改成功');
    history.push(LIST_PATH);
  };

  return (
    <ProForm<UserFormValues>
      layout="horizontal"
      labelCol={{ span: 4 }}
      wrapperCol={{ span: 12 }}
      initialValues={toUserForm(user)}
      onFinish={onFinish}
      submitter={{
        searchConfig: { submitText: '确认修改', resetText: '重置' },
        render: (_, [reset, submit]) => (
          <ProForm.Item wrapperCol={{ offset: 4, span: 12 }}>
            <Space>
              {submit}
              {reset}
            </Space>
          </ProForm.Item>
        ),
      }}
    >
      <UserFormFields mode="edit" />
    </ProForm>
  );
}

export default function EditUser() {
  const { id = '' } = useParams<{ id: string }>();
  const [user] = useLoaded(useCallback(() => getUser(id), [id]));

  return (
    <PageContainer title="编辑用户">
      {user.status === 'failed' ? (
        <LoadFailed error={user.error} backTo={LIST_PATH} backText="返回用户列表" />
      ) : (
        <Card loading={user.status === 'loading'}>
          {user.status === 'ready' && <EditForm key={user.value._id} user={user.value} />}
        </Card>
      )}
    </PageContainer>
  );
}
