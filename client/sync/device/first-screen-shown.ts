import { FIRST_SCREEN_ELEMENT_ID } from '@pipit/protocol';

/*
 * The part of first-screen.ts every start needs, apart so the installed app's first visit does
 * not carry the keeping (loaded once the app has drawn: docs/performance.md).
 */

/** The kept first screen is taken off the page (the app draws its own, or cannot). */
export function dropFirstScreen(): void {
  document.getElementById(FIRST_SCREEN_ELEMENT_ID)?.remove();
}

/** The keeping and forgetting of first screens, loaded when first needed. */
export const firstScreenKeeping = () => import('./first-screen');
