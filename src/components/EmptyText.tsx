import { theme } from 'antd';
import type { ReactNode } from 'react';

/** A small table's empty text at AA contrast: antd draws a plain one in its disabled colour. */
export default function EmptyText({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return <span style={{ color: token.colorTextSecondary }}>{children}</span>;
}
