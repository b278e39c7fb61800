import { LogoutOutlined, SettingOutlined } from '@ant-design/icons';
import { history } from '@umijs/max';
import { Avatar, Dropdown } from 'antd';
import { DEFAULT_AVATAR } from '@/constants';
import type { InitialState } from '@/utils/session';

interface HeaderAccountProps {
  initialState: InitialState | undefined;
  onLogout: () => void;
}

/**
 * The header's avatar and nickname with their menu: 个人设置 and 退出登录. Replaces the layout
 * plugin's own, which offers 退出登录 only; its class names are kept so that it looks the same.
 */
export default function HeaderAccount({ initialState, onLogout }: HeaderAccountProps) {
  if (!initialState?.adminInfo) return null;
  const items = [
    { key: 'settings', icon: <SettingOutlined />, label: '个人设置', onClick: () => history.push('/settings') },
    { key: 'logout', icon: <LogoutOutlined />, label: '退出登录', onClick: onLogout },
  ];
  return (
    <div className="umi-plugin-layout-right anticon">
      <Dropdown menu={{ items, className: 'umi-plugin-layout-menu' }} overlayClassName="umi-plugin-layout-container">
        <span className="umi-plugin-layout-action">
          <Avatar size="small" className="umi-plugin-layout-avatar" src={initialState.avatar || DEFAULT_AVATAR} alt="" />
          <span className="umi-plugin-layout-name">{initialState.name}</span>
        </span>
      </Dropdown>
    </div>
  );
}
