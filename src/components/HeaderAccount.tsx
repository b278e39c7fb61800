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
  // A button, so that Tab reaches it and Enter or Space opens the menu (hover alone left the
  // keyboard without 个人设置 and 退出登录); the menu takes the focus when it opens.
  return (
    <div className="umi-plugin-layout-right anticon">
      <Dropdown
        menu={{ items, className: 'umi-plugin-layout-menu' }}
        // Under the trigger's right edge, its own width: the layout's full-width overlay class for
        // small screens pushed the menu past the left edge of a phone's screen.
        placement="bottomRight"
        trigger={['hover', 'click']}
        autoFocus
      >
        <button type="button" className="umi-plugin-layout-action" aria-label={`账号菜单：${initialState.name ?? ''}`}>
          <Avatar size="small" className="umi-plugin-layout-avatar" src={initialState.avatar || DEFAULT_AVATAR} alt="" />
          <span className="umi-plugin-layout-name">{initialState.name}</span>
        </button>
      </Dropdown>
    </div>
  );
}
