import { DownloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useRef, useState } from 'react';
import type { ExportResource } from '#contract/export';
import { exportList } from '@/services/export';
import { message } from '@/utils/feedback';

/**
 * 导出 in a list's toolbar: exports what the current search shows. `track` wraps the table's
 * `request` so that the button knows the filters ProTable last asked for (its search form, its
 * `params`), and sends exactly those.
 */
export function useListExport(resource: ExportResource) {
  const params = useRef<Record<string, unknown>>({});
  const [busy, setBusy] = useState(false);

  function track<P extends object, R>(request: (p: P) => Promise<R>): (p: P) => Promise<R> {
    return (p) => {
      params.current = { ...(p as Record<string, unknown>) };
      return request(p);
    };
  }

  const onExport = async () => {
    setBusy(true);
    try {
      const name = await exportList(resource, params.current);
      message.success(`已导出 ${name}`);
    } catch {
      // The global error handler has shown what went wrong.
    } finally {
      setBusy(false);
    }
  };

  const button = (
    <Button key="export" icon={<DownloadOutlined />} loading={busy} onClick={onExport}>
      导出
    </Button>
  );
  return { track, button };
}
