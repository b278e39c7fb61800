import { PageContainer, ProForm } from '@ant-design/pro-components';
import { history } from '@umijs/max';
import { Card, Space } from 'antd';
import { useState } from 'react';
import InitialPasswordModal from '@/components/InitialPasswordModal';
import { createUser } from '@/services/user';
import { message } from '@/utils/feedback';
import UserFormFields, { EMPTY_USER_FORM, toNewUser, type UserFormValues } from './components/UserForm';

const LIST_PATH = '/user/userList';

export default function AddUser() {
  const [generated, setGenerated] = useState<{ account: string; password: string }>();

  const onFinish = async (values: UserFormValues) => {
    let created;
    try {
      created = await createUser(toNewUser(values));
    } catch {
      // The global error handler has shown the server's message; the form keeps what was typed.
      return;
    }
    message.success('添加用户成功');
    if (created.initialPassword) {
      setGenerated({ account: created.loginId, password: created.initialPassword });
    } else {
      history.push(LIST_PATH);
    }
  };

  return (
    <PageContainer title="添加用户">
      <Card>
        <ProForm<UserFormValues>
          layout="horizontal"
          labelCol={{ span: 4 }}
          wrapperCol={{ span: 12 }}
          initialValues={EMPTY_USER_FORM}
          onFinish={onFinish}
          submitter={{
            searchConfig: { submitText: '确认新增', resetText: '重置' },
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
          <UserFormFields mode="add" />
        </ProForm>
      </Card>
      <InitialPasswordModal
        account={generated?.account}
        password={generated?.password}
        onClose={() => history.push(LIST_PATH)}
      />
    </PageContainer>
  );
}
