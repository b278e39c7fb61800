import { forwardRef, lazy, Suspense, type ComponentType, type ReactNode, type Ref } from 'react';

type Props = Record<string, unknown> & { children?: ReactNode };

/**
 * A component fetched the first time it renders: the shims below stand in with it for library
 * parts that only some feature, never turned on by these screens, renders. Refs reach the part.
 */
export function lazyPart(
  load: () => Promise<{ default: ComponentType<any> }>,
  fallback: (props: Props) => ReactNode = () => null,
): ComponentType<any> {
  const Part = lazy(load);
  return forwardRef(function LazyPart(props: Props, ref: Ref<unknown>) {
    return (
      <Suspense fallback={fallback(props)}>
        <Part {...props} ref={ref} />
      </Suspense>
    );
  });
}

/** `load`'s export `pick` as a lazily fetched module's default. */
export const part =
  <M,>(load: () => Promise<M>, pick: (module: M) => unknown) =>
  () =>
    load().then((module) => ({ default: pick(module) as ComponentType<any> }));
