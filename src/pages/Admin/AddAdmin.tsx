import { PageContainer, ProForm } from '@ant-design/pro-components';
import { history } from '@umijs/max';
import { Card, Space } from 'antd';
import { useEffect, useState } from 'react';
import InitialPasswordModal from '@/components/InitialPasswordModal';
import { useAdminStore } from '@/hooks/useAdminStore';
import { alreadyShown } from '@/services/api';
import { message } from '@/utils/feedback';
import AdminFormFields, {
  type AdminFormValues,
  EMPTY_ADMIN_FORM,
  toNewAdmin,
} from './components/AdminForm';

const LIST_PATH = '/admin/adminList';

export default function AddAdmin() {
  const { adminList, init, add } = useAdminStore();
  const [generated, setGenerated] = useState<{ account: string; password: string }>();

  // The new admin is appended to the store's list, which must hold the others first.
  useEffect(() => {
    if (adminList.length === 0) init().catch(alreadyShown);
  }, [adminList.length, init]);

  const onFinish = async (values: AdminFormValues) => {
    let created;
    try {
      created = await add(toNewAdmin(values));
    } catch {
      // Shown by the request layer; the form keeps what was typed.
      return;
    }
    message.success('添加管理员成功');
    if (created.initialPassword) {
      setGenerated({ account: created.loginId, password: created.initialPassword });
    } else {
      history.push(LIST_PATH);
    }
  };

  return (
    <PageContainer title="添加管理员">
      <Card>
        <ProForm<AdminFormValues>
          layout="horizontal"
          labelCol={{ span: 4 }}
          wrapperCol={{ span: 12 }}
          initialValues={EMPTY_ADMIN_FORM}
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
          <AdminFormFields mode="add" />
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
