import type { ReactNode } from 'react';

/** antd's secondary text colour is too light on white for WCAG AA (4.5:1); this grey reaches 7:1. */
const TEXT_SECONDARY = 'rgba(0, 0, 0, 0.65)';

interface StatusPageProps {
  icon: ReactNode;
  title: string;
  description: string;
  /** A second line under the description, when there is more to say. */
  detail?: string;
  action: ReactNode;
}

/*
 * A centred status message. These pages are part of the first bundle (the layout's runtime
 * config builds them), so they avoid antd's Result, whose illustrations weigh ~10 KB gzipped.
 */
export default function StatusPage({ icon, title, description, detail, action }: StatusPageProps) {
  return (
    <div style={{ padding: '72px 24px', textAlign: 'center' }}>
      <div style={{ fontSize: 64, lineHeight: 1 }}>{icon}</div>
      <h2 style={{ margin: '24px 0 8px', fontSize: 24, fontWeight: 600 }}>{title}</h2>
      <p style={{ margin: detail ? '0 0 4px' : '0 0 24px', color: TEXT_SECONDARY }}>{description}</p>
      {detail && <p style={{ margin: '0 0 24px', color: TEXT_SECONDARY }}>{detail}</p>}
      {action}
    </div>
  );
}
