/**
 * The classic scripts every page of Pipit runs in its <head>, before its first paint and before
 * any module. The build writes them into the HTML inline (vite.config.ts, where the page has
 * `<!-- head-script: name -->`), and the server's Content-Security-Policy allows exactly these by
 * their hashes (sync-server/src/http/security-headers.ts): each was a file of its own, a request
 * a page waited for before it painted (on a phone's HTTP/1.1, a place in the first six) and, in an
 * installed app, a read from the service worker before the app's code could start.
 *
 * - `theme-init`: the person's light/dark choice (client/platform/theme-preference.ts, kept
 *   under THEME_STORAGE_KEY) on the page before its first paint, so it never flashes the other scheme.
 * - `zod-jitless`: zod reads `globalThis.__zod_globalConfig` when it loads. Without `jitless`,
 *   zod probes `new Function` on its first parse, and the policy (no 'unsafe-eval') reports the
 *   probe as a violation even though zod catches it. It must run before the first module: the
 *   bundler evaluates an entry's imported chunks before the entry's own code.
 *
 * - `first-screen`: in the installed app's page only, right after `#root`: the app's first screen
 *   as this device last drew it, shown while the app's code starts (first-screen.ts).
 *
 * Their text is hashed as it is: change a script and its hash changes with it.
 */
import { FIRST_SCREEN_SCRIPT } from './first-screen';

/** Where this device keeps the person's light/dark choice (client/platform/theme-preference.ts). */
export const THEME_STORAGE_KEY = 'pipit:theme';

export const HEAD_SCRIPTS = {
  'theme-init': `try{var t=localStorage.getItem('${THEME_STORAGE_KEY}');if(t==='light'||t==='dark')document.documentElement.dataset.theme=t}catch(e){}`,
  'zod-jitless':
    'globalThis.__zod_globalConfig=Object.assign(globalThis.__zod_globalConfig||{},{jitless:true})',
  'first-screen': FIRST_SCREEN_SCRIPT,
} as const;

type HeadScriptName = keyof typeof HEAD_SCRIPTS;

/** Where a page's source HTML asks for one (`<!-- head-script: theme-init -->`). */
const HEAD_SCRIPT_MARKER = /<!-- head-script: ([a-z-]+) -->/g;

/**
 * A page's source HTML with its head scripts written in; throws on a name it does not know, so
 * a typo fails the build instead of shipping a page without its script.
 */
export function withHeadScripts(html: string): string {
  return html.replace(HEAD_SCRIPT_MARKER, (_, name: string) => {
    if (!Object.hasOwn(HEAD_SCRIPTS, name)) throw new Error(`no head script named "${name}"`);
    return `<script>${HEAD_SCRIPTS[name as HeadScriptName]}</script>`;
  });
}
