// Stands in for the large illustrations of antd's Result (404, 403, 500), which every screen
// carries because the layout's error pages and ProTable's error boundary import Result; fetched
// the first time one is shown. The image's name is this module's query (see .umirc.ts).
import { lazy, Suspense } from 'react';

declare const __resourceQuery: string;

const loaders = {
  noFound: () => import('antd/es/result/noFound'),
  serverError: () => import('antd/es/result/serverError'),
  unauthorized: () => import('antd/es/result/unauthorized'),
};

const name = __resourceQuery.slice(1) as keyof typeof loaders;
if (!loaders[name]) throw new Error(`lazy-result-image: no loader for the image "${name}"`);
const Image = lazy(loaders[name]);

export default function LazyResultImage() {
  return (
    <Suspense fallback={null}>
      <Image />
    </Suspense>
  );
}
