import { type ComponentProps, lazy, Suspense } from 'react';

const Page = lazy(() =>
  import('./pwa-not-found').then((module) => ({ default: module.PwaNotFound })),
);

/**
 * Why an installed app cannot run (pwa-not-found.tsx), loaded when it is needed: an app that runs
 * never carries its texts (the installed app's first visit is budgeted: docs/performance.md).
 * Every file of the build is precached, so it loads offline too.
 */
export function PwaNotFound(props: ComponentProps<typeof Page>) {
  return (
    <Suspense fallback={null}>
      <Page {...props} />
    </Suspense>
  );
}
