import { createContext, type ReactNode } from 'react';
import type { AppDataView } from '../../sync/visitor-data/app-data';

/**
 * The spaces' part of a running app (docs/product/spaces.md). It is the spaces feature's
 * (client/features/spaces/app-spaces.tsx), and a feature never imports another: the host names here
 * what it needs, the installed app's entry (client/app-main.tsx) passes in how to render the
 * feature's component, and the host lays out the parts it is given. Without one (or in an app with no shared
 * collections) the app runs on the person's own data alone.
 */
export interface HostSpacesProps {
  appId: string;
  appTitle: string;
  account: { id: string; username: string } | null;
  visitorData: AppDataView;
  /** Lays the parts out in the host. */
  children(parts: HostSpacesParts): ReactNode;
}

export interface HostSpacesParts {
  /** In the app's bar: which list is shown, who else is here, and the way to share. */
  button?: ReactNode;
  /** Above the app: what happened to the person's spaces, where their items are. */
  notices?: ReactNode;
  /** The spaces dialog while it is open. */
  dialog?: ReactNode;
}

/** Renders the spaces' part of an app (null: none is given). */
export const SpacesSlot = createContext<((props: HostSpacesProps) => ReactNode) | null>(null);

/** How the entry loads the spaces' part (its own chunk), set where it gives the slot. */
let loadSpacesPart: (() => Promise<unknown>) | null = null;

/** The installed app's entry says how the spaces' part loads (client/app-main.tsx). */
export function provideSpacesPart(load: () => Promise<unknown>): void {
  loadSpacesPart = load;
}

/**
 * Loads the spaces' part ahead of the first render of an app with shared collections, so that
 * render lays it out at once (drawn later, the app under it would be drawn anew, and what the
 * person had started typing lost). Never rejects.
 */
export async function preloadSpacesPart(): Promise<void> {
  await loadSpacesPart?.().catch(() => undefined);
}
