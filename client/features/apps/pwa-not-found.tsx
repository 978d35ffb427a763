import './pwa-not-found.css';

/**
 * `/apps/{id}/pwa` when the app cannot be run: full screen, without Pipit's navigation, since this
 * is what an installed app opens to.
 */
export function PwaNotFound() {
  return (
    <main className="pwa-missing" id="main">
      <div className="pwa-missing__inner">
        <p className="pwa-missing__icon" aria-hidden="true">
          🪺
        </p>
        <h1>This app isn’t available</h1>
        <p>
          It may have been deleted, or it is private and not shared with you. If you installed it,
          you can remove it from your home screen.
        </p>
        <a href="/explore">Find other apps on Pipit</a>
      </div>
    </main>
  );
}
