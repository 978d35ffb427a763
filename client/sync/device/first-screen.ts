import {
  FIRST_SCREEN_FORMAT,
  FIRST_SCREEN_KEY_PREFIX,
  FIRST_SCREEN_STYLE_ATTRIBUTE,
  firstScreenDay,
  type KeptFirstScreen,
} from '@pipit/protocol';

/*
 * The installed app's first screen as this device last drew it: kept in localStorage (the page's
 * `first-screen` head script reads it synchronously, before the app's code has loaded: no
 * database to open), shown over the page while the app starts, and taken away when the app draws
 * its own (@pipit/protocol first-screen.ts; docs/performance.md, "Records at scale"). It holds the
 * person's data as drawn, so it is kept under who they are, shown only to them, and forgotten with
 * their private copies when they sign out (session.ts) and when the app is gone.
 */

/** Larger screens are not kept (a phone's screen of a list is ~20-40 KB). */
const MAX_CHARS = 200_000;
/** Rows kept of a long list or table at most: more than a tall window shows. */
const ROWS_KEPT = 30;
/**
 * Rows below this many window heights from the host's top are not kept (a taller window at the
 * next start, a rotated phone, still shows a full screen): the kept screen is laid out before
 * anything else on a page that may be fresh, where every line costs most (~90 ms of a new
 * window's start at 4× for 30 rows).
 */
const WINDOWS_KEPT = 1.5;
/**
 * Never kept: elements whose text is written raw (the first-screen script parses what it keeps
 * as HTML, and a raw-text element is where markup could be read differently the second time),
 * embedded documents, anything the app marks as not to keep, dialogs and passing messages (a
 * toast), and "Your data on this device" (it says what the server has confirmed).
 */
const DROPPED =
  'script, style, xmp, iframe, noembed, noframes, plaintext, noscript, object, embed, template, ' +
  'foreignObject, math, link, meta, dialog, [role="dialog"], [role="alert"], .rt-toast-region, ' +
  '.toast, .update-bar, .app-host__update, .app-host__notice, .app-host__ai-runs, ' +
  '.app-host__device, [data-first-screen="skip"]';
/**
 * Kept in its place (the screen does not move when the app draws) but not shown: the sync badge
 * would say "Saved" before anything was.
 */
const UNSHOWN = '.sync-indicator';
const URL_ATTRIBUTES = new Set(['src', 'href', 'xlink:href', 'action', 'formaction', 'poster']);

const keyOf = (appId: string) => `${FIRST_SCREEN_KEY_PREFIX}${appId}`;

/** A same-site path, a web address, a fragment or an inline image; never a script's or a blob's. */
function isKeptUrl(value: string): boolean {
  const url = value.trim().toLowerCase();
  return (
    (url.startsWith('/') && !url.startsWith('//')) ||
    url.startsWith('https://') ||
    url.startsWith('http://') ||
    url.startsWith('#') ||
    url.startsWith('data:image/')
  );
}

/**
 * The screen as inert markup: no raw-text elements, no handlers, no ids (the live screen has
 * them), no addresses but plain ones, styles as data, the first rows of a long list; null when
 * it is too large.
 */
function firstScreenHtml(host: Element): string | null {
  const clone = host.cloneNode(true) as Element;
  writeFormState(host, clone);
  cutLongLists(host, clone);
  for (const element of clone.querySelectorAll(DROPPED)) element.remove();
  for (const element of clone.querySelectorAll(UNSHOWN)) {
    // Not through `style`: the page's policy reports a style attribute set in markup.
    const kept = element.getAttribute('style');
    element.removeAttribute('style');
    element.setAttribute(
      FIRST_SCREEN_STYLE_ATTRIBUTE,
      `${kept ? `${kept}; ` : ''}visibility: hidden`,
    );
  }
  for (const element of [clone, ...clone.querySelectorAll('*')]) {
    for (const { name } of [...element.attributes]) {
      const lower = name.toLowerCase();
      const value = element.getAttribute(name) ?? '';
      if (
        lower.startsWith('on') ||
        lower === 'id' ||
        lower === 'autofocus' ||
        lower === 'srcset' ||
        (URL_ATTRIBUTES.has(lower) && !isKeptUrl(value))
      ) {
        element.removeAttribute(name);
      } else if (lower === 'style') {
        // The page's policy allows no style attribute in markup: the script sets it through
        // the element's style object instead (@pipit/protocol first-screen.ts).
        element.removeAttribute(name);
        element.setAttribute(FIRST_SCREEN_STYLE_ATTRIBUTE, value);
      }
    }
  }
  const html = clone.outerHTML;
  return html.length <= MAX_CHARS ? html : null;
}

/**
 * A list's or table's rows after the window's worth (below WINDOWS_KEPT window heights, or
 * after ROWS_KEPT) are cut from the copy; a list not laid out (hidden) keeps its first ROWS_KEPT.
 */
function cutLongLists(host: Element, clone: Element): void {
  const lists = 'ul, ol, tbody';
  const copies = clone.querySelectorAll(lists);
  const limit = host.getBoundingClientRect().top + window.innerHeight * WINDOWS_KEPT;
  host.querySelectorAll(lists).forEach((list, i) => {
    const copy = copies[i];
    if (!copy) return;
    let kept = Math.min(list.children.length, ROWS_KEPT);
    for (let k = 1; k < kept; k += 1) {
      const rect = list.children.item(k)?.getBoundingClientRect();
      if (rect && rect.height > 0 && rect.top > limit) kept = k;
    }
    while (copy.children.length > kept) copy.lastElementChild?.remove();
  });
}

/**
 * A form control's state is a property (a ticked box, a typed search), which markup does not
 * carry: written into the copy's attributes, so the kept screen shows what the screen showed.
 */
function writeFormState(host: Element, clone: Element): void {
  const controls = 'input, textarea, select';
  const copies = clone.querySelectorAll(controls);
  host.querySelectorAll(controls).forEach((control, i) => {
    const copy = copies[i];
    if (!copy) return;
    if (control instanceof HTMLInputElement) {
      if (control.type === 'checkbox' || control.type === 'radio') {
        copy.toggleAttribute('checked', control.checked);
      } else if (control.type !== 'password' && control.type !== 'file') {
        copy.setAttribute('value', control.value);
      }
    } else if (control instanceof HTMLTextAreaElement) {
      copy.textContent = control.value;
    } else if (control instanceof HTMLSelectElement) {
      const options = copy.querySelectorAll('option');
      [...control.options].forEach((option, k) =>
        options[k]?.toggleAttribute('selected', option.selected),
      );
    }
  });
}

/** The day this page last forgot the screens kept on other days. */
let prunedOn: string | null = null;

/** What the first-screen script compares the build with: the entry script's address. */
const buildOf = () => document.querySelector('script[type=module][src]')?.getAttribute('src') ?? '';

/**
 * Keeps `host` (the app's host element, showing its first screen) as the app's first screen.
 * `dark`: whether it is drawn in the device's dark scheme, or null for an app with one scheme.
 */
export function keepFirstScreen(
  appId: string,
  viewer: string,
  host: Element,
  dark: boolean | null,
): void {
  try {
    const html = firstScreenHtml(host);
    if (html === null) {
      localStorage.removeItem(keyOf(appId));
      return;
    }
    const kept: KeptFirstScreen = {
      v: FIRST_SCREEN_FORMAT,
      viewer,
      day: firstScreenDay(new Date()),
      dark,
      theme: document.documentElement.dataset.theme ?? '',
      build: buildOf(),
      html,
    };
    // Other days' go once a page and day, not at every keep (it reads every kept screen).
    if (prunedOn !== kept.day) {
      forgetFirstScreensWhere((entry) => entry?.day !== kept.day);
      prunedOn = kept.day;
    }
    localStorage.setItem(keyOf(appId), JSON.stringify(kept));
  } catch (error) {
    // Storage full or unavailable: the app starts as it would without one, never with an older one.
    forgetFirstScreen(appId);
    console.warn('Could not keep the app’s first screen on this device:', error);
  }
}

/** A first screen is kept this long after it last changed (and when the page is hidden). */
const KEEP_AFTER_MS = 1_500;

/** Whether `host` shows the app's first screen, at the top of its navigation (no Back). */
function showsFirstScreen(host: Element, firstScreenId: string): boolean {
  const screen = host.querySelector('.rt-screen');
  return screen?.getAttribute('data-screen') === firstScreenId && !host.querySelector('.rt-back');
}

/**
 * The screen just drawn (first-screen-keeper.ts) is kept a moment after, and again whenever the
 * page is hidden (what was drawn since without a change of the data, a search typed, is kept
 * too; a phone may end a hidden app without a pagehide), if the host then shows the app's first
 * screen; until stopped (the screen is drawn from something new: a new one is watched). Gives
 * the stop.
 */
export function keepWhenSettled({
  appId,
  viewer,
  host,
  firstScreenId,
  dark,
}: {
  appId: string;
  viewer: string;
  host: { readonly current: Element | null };
  firstScreenId: string;
  dark: boolean | null;
}): () => void {
  const keep = () => {
    const element = host.current;
    if (element && showsFirstScreen(element, firstScreenId)) {
      keepFirstScreen(appId, viewer, element, dark);
    }
  };
  const keepHidden = () => {
    if (document.visibilityState === 'hidden') keep();
  };
  const timer = setTimeout(keep, KEEP_AFTER_MS);
  window.addEventListener('pagehide', keep);
  document.addEventListener('visibilitychange', keepHidden);
  return () => {
    clearTimeout(timer);
    window.removeEventListener('pagehide', keep);
    document.removeEventListener('visibilitychange', keepHidden);
  };
}

/** Forgets one app's first screen (it is gone, or no longer theirs to see). */
export function forgetFirstScreen(appId: string): void {
  try {
    localStorage.removeItem(keyOf(appId));
  } catch {
    // Nothing kept can be read either.
  }
}

/**
 * Forgets every first screen kept for `viewer`: they signed out, someone else signed in, or an
 * anonymous visitor signed in (their data went into the account).
 */
export function forgetFirstScreens(viewer: string): void {
  forgetFirstScreensWhere((entry) => entry?.viewer === viewer);
}

/** Forgets the kept first screens `gone` says so of (one that cannot be read goes too). */
function forgetFirstScreensWhere(gone: (entry: Partial<KeptFirstScreen> | null) => boolean): void {
  try {
    for (let i = localStorage.length - 1; i >= 0; i -= 1) {
      const key = localStorage.key(i);
      if (!key?.startsWith(FIRST_SCREEN_KEY_PREFIX)) continue;
      let entry: Partial<KeptFirstScreen> | null = null;
      try {
        entry = JSON.parse(localStorage.getItem(key) ?? 'null') as Partial<KeptFirstScreen> | null;
      } catch {
        entry = null;
      }
      if (!entry || gone(entry)) localStorage.removeItem(key);
    }
  } catch (error) {
    console.warn('Could not forget the app screens kept on this device:', error);
  }
}
