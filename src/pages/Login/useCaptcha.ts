import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchCaptcha } from '@/services/admin';

export interface Captcha {
  /**
   * The captcha as a data: URL for an <img>, empty while loading or after a failure. An SVG shown
   * as an image runs no script and loads nothing, so the markup needs no sanitiser (DOMPurify would
   * add 12 KB gzipped to the login page).
   */
  src: string;
  loading: boolean;
  failed: boolean;
  reload: () => void;
}

/** Loads a captcha on mount and on demand; only the newest request's answer is shown. */
export function useCaptcha(): Captcha {
  const [src, setSrc] = useState('');
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const latest = useRef(0);

  const reload = useCallback(() => {
    const request = ++latest.current;
    setLoading(true);
    setFailed(false);
    fetchCaptcha()
      .then((markup) => {
        if (request !== latest.current) return;
        setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(markup)}`);
      })
      .catch(() => {
        if (request !== latest.current) return;
        setSrc('');
        setFailed(true);
      })
      .finally(() => {
        if (request === latest.current) setLoading(false);
      });
  }, []);

  useEffect(reload, [reload]);

  return { src, loading, failed, reload };
}
