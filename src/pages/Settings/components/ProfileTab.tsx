import { ProForm, ProFormText } from '@ant-design/pro-components';
import { useModel } from '@umijs/max';
import ImageUpload from '@/components/ImageUpload';
import { updateMe } from '@/services/account';
import type { UpdateMeBody } from '#contract/account';
import { message } from '@/utils/feedback';
import { toInitialState } from '@/utils/session';

interface ProfileValues {
  loginId: string;
  nickname: string;
  avatar: string;
}

/** 基本资料: nickname and avatar; the header follows through initialState, which owns the signed-in admin. */
export default function ProfileTab() {
  const { initialState, setInitialState } = useModel('@@initialState');
  const admin = initialState?.adminInfo;

  const onFinish = async (values: ProfileValues) => {
    const changes: UpdateMeBody = {};
    const nickname = values.nickname.trim();
    if (nickname !== admin?.nickname) changes.nickname = nickname;
    const avatar = (values.avatar ?? '').trim();
    if (avatar !== admin?.avatar) changes.avatar = avatar;
    if (Object.keys(changes).length === 0) {
      message.info('没有需要保存的修改');
      return true;
    }
    try {
      const fresh = await updateMe(changes);
      await setInitialState(toInitialState(fresh));
    } catch {
      // Shown by the request layer; the form keeps what was typed.
      return false;
    }
    message.success('个人资料已保存');
    return true;
  };

  return (
    <ProForm<ProfileValues>
      layout="horizontal"
      labelCol={{ span: 4 }}
      wrapperCol={{ span: 12 }}
      initialValues={{ loginId: admin?.loginId ?? '', nickname: admin?.nickname ?? '', avatar: admin?.avatar ?? '' }}
      submitter={{
        searchConfig: { submitText: '保存' },
        resetButtonProps: false,
        render: (_, dom) => <div style={{ marginLeft: '16.66%' }}>{dom}</div>,
      }}
      onFinish={onFinish}
    >
      <ProFormText label="登录账号" name="loginId" disabled />
      <ProFormText
        name="nickname"
        label="昵称"
        placeholder="请输入昵称"
        rules={[{ required: true, whitespace: true, message: '昵称不能为空' }]}
        fieldProps={{ maxLength: 32 }}
      />
      <ProForm.Item name="avatar" label="头像">
        <ImageUpload aspect={1} addressLabel="头像地址" />
      </ProForm.Item>
    </ProForm>
  );
}
