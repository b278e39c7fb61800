import { PageContainer } from '@ant-design/pro-components';
import { useModel } from '@umijs/max';
import { Avatar, Card, Space, Tag, Typography } from 'antd';
import { DEFAULT_AVATAR } from '@/constants';

/** A welcome until the statistics dashboard (GET /api/stats) lands. */
export default function Home() {
  const { initialState } = useModel('@@initialState');
  const admin = initialState?.adminInfo;

  return (
    <PageContainer title="首页">
      <Card>
        <Space size="large" align="center">
          <Avatar size={64} src={admin?.avatar || DEFAULT_AVATAR} alt="头像" />
          <div>
            <Typography.Title level={4} style={{ margin: 0 }}>
              欢迎回来，{admin?.nickname ?? '管理员'}
            </Typography.Title>
            <Space style={{ marginTop: 8 }}>
              <Typography.Text type="secondary">账号 {admin?.loginId}</Typography.Text>
              {admin?.permission === 1 ? (
                <Tag color="orange">超级管理员</Tag>
              ) : (
                <Tag color="blue">普通管理员</Tag>
              )}
            </Space>
          </div>
        </Space>
        <Typography.Paragraph type="secondary" style={{ marginTop: 24, marginBottom: 0 }}>
          coder station 后台管理系统：在左侧菜单中管理用户、书籍、面试题、问答、评论与分类。
        </Typography.Paragraph>
      </Card>
    </PageContainer>
  );
}
