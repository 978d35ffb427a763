import type { ReadScreen } from '@pipit/app-definition';

/**
 * The app's top-level screens. Plain buttons in a navigation landmark, the current one marked with
 * aria-current: each is reachable with Tab and works with Enter or Space, with no arrow-key
 * contract to learn (the ARIA tabs pattern suits panels within a page, not app sections).
 */
export function TabBar({
  tabs,
  activeScreenId,
  onSelect,
}: {
  tabs: ReadScreen[];
  activeScreenId: string | null;
  onSelect: (screenId: string) => void;
}) {
  return (
    <nav className="rt-tabs" aria-label="Screens">
      <ul className="rt-tab-list">
        {tabs.map((screen) => {
          const active = screen.id === activeScreenId;
          return (
            <li key={screen.id} className="rt-tab-item">
              <button
                type="button"
                className={`rt-tab${active ? ' rt-tab-active' : ''}`}
                aria-current={active ? 'page' : undefined}
                onClick={() => onSelect(screen.id)}
              >
                <span className="rt-tab-icon" aria-hidden="true">
                  {screen.icon}
                </span>
                <span className="rt-tab-title" dir="auto">
                  {screen.title}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
