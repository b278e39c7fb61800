import { Space, Spin, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { getSecuritySettings, updateSecuritySettings } from '@/services/account';
import { alreadyShown } from '@/services/api';
import { message } from '@/utils/feedback';

/** 安全设置 (super admins only): require two-step sign-in of every admin. The server enforces it. */
export default function SecurityTab() {
  const [require2fa, setRequire2fa] = useState<boolean>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    getSecuritySettings()
      .then((settings) => setRequire2fa(settings.require2fa))
      .catch(alreadyShown);
  }, []);

  const onChange = async (checked: boolean) => {
    setSaving(true);
    try {
      const settings = await updateSecuritySettings({ require2fa: checked });
      setRequire2fa(settings.require2fa);
      message.success(checked ? '已要求所有管理员开启两步验证' : '已取消两步验证的要求');
    } catch {
      // Shown by the request layer; the switch stays where it was.
    }
    setSaving(false);
  };

  if (require2fa === undefined) return <Spin />;
  return (
    <Space direction="vertical">
      <Space>
        <Switch checked={require2fa} loading={saving} onChange={onChange} aria-label="要求所有管理员开启两步验证" />
        <span>要求所有管理员开启两步验证</span>
      </Space>
      <Typography.Text type="secondary">开启后，没有开启两步验证的管理员登录后只能先完成两步验证的设置，才能使用其他功能。</Typography.Text>
    </Space>
  );
}
