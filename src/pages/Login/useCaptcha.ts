import DOMPurify from 'dompurify';
import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchCaptcha } from '@/services/admin';

export interface Captcha {
  /** Sanitised SVG markup, empty while loading or after a failure. */
  svg: string;
  loading: boolean;
  failed: boolean;
  reload: () => void;
}

/** Loads a captcha on mount and on demand; only the newest request's answer is shown. */
export function useCaptcha(): Captcha {
  const [svg, setSvg] = useState('');
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
        // The markup is injected as HTML: keep only what an SVG image needs.
        setSvg(DOMPurify.sanitize(markup, { USE_PROFILES: { svg: true } }));
      })
      .catch(() => {
        if (request !== latest.current) return;
        setSvg('');
        setFailed(true);
      })
      .finally(() => {
        if (request === latest.current) setLoading(false);
      });
  }, []);

  useEffect(reload, [reload]);

  return { svg, loading, failed, reload };
}
