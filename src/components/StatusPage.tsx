import type { ReactNode } from 'react';

interface StatusPageProps {
  icon: ReactNode;
  title: string;
  description: string;
  action: ReactNode;
}

/*
 * A centred status message. These pages are part of the first bundle (the layout's runtime
 * config builds them), so they avoid antd's Result, whose illustrations weigh ~10 KB gzipped.
 */
export default function StatusPage({ icon, title, description, action }: StatusPageProps) {
  return (
    <div style={{ padding: '72px 24px', textAlign: 'center' }}>
      <div style={{ fontSize: 64, lineHeight: 1 }}>{icon}</div>
      <h2 style={{ margin: '24px 0 8px', fontSize: 24, fontWeight: 600 }}>{title}</h2>
      <p style={{ margin: '0 0 24px', color: 'rgba(0, 0, 0, 0.45)' }}>{description}</p>
      {action}
    </div>
  );
}
