import { Descriptions, Image, Modal, Space } from 'antd';
import { MemberSessionsCard, PointsHistoryCard } from './MemberActivity';
import HistoryButton from '@/components/HistoryDrawer';
import { DEFAULT_AVATAR } from '@/constants';
import type { User } from '#contract/user';
import { formatDate } from '@/utils/format';
import MemberFile from './MemberFile';

const orUnset = (text: string) => text || '未填写';

/*
 * The server stamps lastLoginDate with the registration time when it creates a user (docs/api.md
 * "user" keeps the field a date, never empty); only a sign-in on the community site moves it later. So a
 * last sign-in no later than the registration means there has been none.
 */
export const lastLoginText = ({ registerDate, lastLoginDate }: Pick<User, 'registerDate' | 'lastLoginDate'>) =>
  lastLoginDate > registerDate ? formatDate(lastLoginDate) : '从未登录';

export default function UserDetail({ user, onClose }: { user: User | null; onClose: () => void }) {
  return (
    <Modal
      title={
        <Space>
          用户详情
          {user && <HistoryButton entity="user" id={user._id} />}
        </Space>
      }
      open={user !== null}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      {user && (
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label="登录账号">{user.loginId}</Descriptions.Item>
            <Descriptions.Item label="头像">
              <Image src={user.avatar || DEFAULT_AVATAR} fallback={DEFAULT_AVATAR} alt={`${user.nickname}的头像`} width={64} />
            </Descriptions.Item>
            <Descriptions.Item label="邮箱">{orUnset(user.mail)}</Descriptions.Item>
            <Descriptions.Item label="QQ">{orUnset(user.qq)}</Descriptions.Item>
            <Descriptions.Item label="微信">{orUnset(user.wechat)}</Descriptions.Item>
            <Descriptions.Item label="个人简介">{orUnset(user.intro)}</Descriptions.Item>
            <Descriptions.Item label="注册时间">{formatDate(user.registerDate)}</Descriptions.Item>
            <Descriptions.Item label="上次登录">{lastLoginText(user)}</Descriptions.Item>
            <Descriptions.Item label="当前积分">{user.points}</Descriptions.Item>
          </Descriptions>
          <MemberSessionsCard userId={user._id} />
          <PointsHistoryCard userId={user._id} />
        </Space>
      )}
      {user && <MemberFile userId={user._id} />}
    </Modal>
  );
}
