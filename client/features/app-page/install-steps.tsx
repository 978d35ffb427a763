import type { ReactNode } from 'react';
import type { InstallPlatform } from './platform';

interface PlatformSteps {
  platform: InstallPlatform;
  title: string;
  /** null: a step that does not apply here. */
  steps: ReactNode[];
}

/**
 * The steps for every kind of device. `oneClick` is whether the page shows an Install button (the
 * browser offered its prompt): only then do the steps point to it (they said "Click
 * Install above" under a page that showed only "Open …").
 */
export function installSteps(oneClick: boolean): PlatformSteps[] {
  return [
    {
      platform: 'ios',
      title: 'iPhone and iPad (Safari)',
      steps: [
        'Open this page in Safari.',
        <>
          Tap the <strong>Share</strong> button (a square with an arrow pointing up).
        </>,
        <>
          Scroll down and tap <strong>Add to Home Screen</strong>, then <strong>Add</strong>.
        </>,
      ],
    },
    {
      platform: 'android',
      title: 'Android (Chrome)',
      steps: [
        oneClick ? (
          <>
            Tap <strong>Install</strong> above.
          </>
        ) : null,
        <>
          {oneClick ? 'Or open' : 'Open'} Chrome’s menu <strong>⋮</strong> and tap{' '}
          <strong>Install app</strong> (or <strong>Add to Home screen</strong>).
        </>,
        'Confirm. The app appears with your other apps.',
      ],
    },
    {
      platform: 'desktop-chromium',
      title: 'Computer (Chrome or Edge)',
      steps: [
        oneClick ? (
          <>
            Click <strong>Install</strong> above, or the install icon at the right end of the
            address bar (a screen with a down arrow).
          </>
        ) : (
          <>
            Click the install icon at the right end of the address bar (a screen with a down arrow),
            if your browser shows one.
          </>
        ),
        <>
          Or open the browser’s menu and choose <strong>Install …</strong> (in Edge:{' '}
          <strong>Apps → Install this site as an app</strong>).
        </>,
        'The app opens in its own window and gets an icon in your dock, taskbar or start menu.',
      ],
    },
    {
      platform: 'other',
      title: 'Other browsers',
      steps: [
        <>
          Safari on a Mac: <strong>File → Add to Dock</strong>.
        </>,
        'Firefox and some others can’t install apps: open the app in Chrome, Edge or Safari, or bookmark it — it still works offline once opened.',
      ],
    },
  ];
}

/** How to install on each kind of device; this device's first, marked as such. */
export function InstallSteps({
  detected,
  oneClick,
}: {
  detected: InstallPlatform;
  oneClick: boolean;
}) {
  const ordered = installSteps(oneClick).sort(
    (a, b) => Number(b.platform === detected) - Number(a.platform === detected),
  );
  return (
    <div className="install-steps">
      {ordered.map((entry) => {
        const isThisDevice = entry.platform === detected;
        return (
          <section
            key={entry.platform}
            className={`install-steps__platform${isThisDevice ? ' install-steps__platform--current' : ''}`}
            aria-labelledby={`install-${entry.platform}`}
          >
            <h3 id={`install-${entry.platform}`} className="install-steps__title">
              {entry.title}
              {isThisDevice ? <span className="install-steps__badge">This device</span> : null}
            </h3>
            <ol className="install-steps__list">
              {entry.steps.map((step, index) => (step ? <li key={index}>{step}</li> : null))}
            </ol>
          </section>
        );
      })}
    </div>
  );
}
