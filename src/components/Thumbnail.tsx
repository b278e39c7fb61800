import type { CSSProperties, SyntheticEvent } from 'react';

interface ThumbnailProps {
  src: string;
  /** Shown instead when `src` fails to load. */
  fallback: string;
  alt: string;
  width: number;
  height: number;
  /**
   * Loaded only when scrolled near (the default). The rows a page first shows should not be: their
   * pictures are what the page is judged to have finished painting by (its largest contentful paint).
   */
  lazy?: boolean;
  style?: CSSProperties;
}

/**
 * A list cell's picture: a plain image that falls back when its file is missing. docs/screens.md asks
 * only for the picture here (no preview), and antd's Image brings its preview viewer (rc-image,
 * rc-dialog, ~10 KB gzipped) into the list's first load for nothing.
 */
export function Thumbnail({ src, fallback, alt, width, height, lazy = true, style }: ThumbnailProps) {
  const onError = (event: SyntheticEvent<HTMLImageElement>) => {
    const img = event.currentTarget;
    // Once only: a missing fallback must not loop.
    if (img.dataset.fallback) return;
    img.dataset.fallback = '1';
    img.src = fallback;
  };
  return (
    <img
      src={src}
      alt={alt}
      width={width}
      height={height}
      loading={lazy ? 'lazy' : 'eager'}
      decoding="async"
      onError={onError}
      style={{ display: 'block', objectFit: 'cover', ...style }}
    />
  );
}
