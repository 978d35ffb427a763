import { ANONYMOUS_VIEWER } from './published-viewer';

/**
 * The installed app's first screen as this device last drew it (client/sync/device/first-screen.ts
 * keeps it), shown by the page's `first-screen` head script (head-scripts.ts) while the app's code
 * starts, and taken away when the app draws its own (docs/performance.md, "Records at scale").
 * What the script and the keeper agree on lives here, so the two cannot drift apart.
 */

/** Where the person's account last seen on this device is kept (client/platform/session). */
export const ACCOUNT_STORAGE_KEY = 'pipit:account';

/** The localStorage key of an app's first screen. */
export const FIRST_SCREEN_KEY_PREFIX = 'pipit:first-screen:';

/** The element the script puts the first screen in, over the page's root until the app draws. */
export const FIRST_SCREEN_ELEMENT_ID = 'pipit-first-screen';

/**
 * Where a kept element's style attribute is kept: the pages' Content-Security-Policy allows no
 * style attribute in markup, so the script sets each through the element's style object.
 */
export const FIRST_SCREEN_STYLE_ATTRIBUTE = 'data-pipit-style';

/** The longest a kept screen is shown: by then the app has drawn, or says why it cannot. */
export const FIRST_SCREEN_AT_MOST_MS = 10_000;

/** The format of what is kept; another is not shown. */
export const FIRST_SCREEN_FORMAT = 1;

/** The day a first screen was drawn on (the device's calendar): a formula's TODAY() changes with it. */
export function firstScreenDay(date: Date): string {
  return `${date.getFullYear()}-${date.getMonth() + 1}-${date.getDate()}`;
}

/**
 * What a kept first screen says of itself; the script shows it only when each is still what the
 * page would draw with: the format, who is signed in (their data is in it), the day, the light or
 * dark scheme (the device's and the person's choice), the build (its styles), and markup.
 */
export interface KeptFirstScreen {
  v: typeof FIRST_SCREEN_FORMAT;
  viewer: string;
  day: string;
  /** Drawn in the device's dark scheme (true) or light (false); null: the app has one scheme. */
  dark: boolean | null;
  theme: string;
  build: string;
  html: string;
}

/**
 * The script itself, run where the page has it (client/app.html, right after `#root`): plain
 * ES5 in a string, hashed into the Content-Security-Policy with the other head scripts. The build
 * is told by the entry script's address (its name has the build's hash). The kept screen is
 * inert, inside an element that takes a tap on it (an inert element lets a tap through, to the
 * page still loading under it); it goes after FIRST_SCREEN_AT_MOST_MS whatever happens, so an
 * app whose code never starts is not hidden behind it. Any failure shows nothing: the app starts
 * as it would without a kept screen.
 */
export const FIRST_SCREEN_SCRIPT =
  'try{' +
  'var m=/^\\/apps\\/([a-z2-7]{26})\\/pwa\\/?$/.exec(location.pathname),' +
  `s=m&&localStorage.getItem('${FIRST_SCREEN_KEY_PREFIX}'+m[1]);` +
  'if(s){' +
  `var f=JSON.parse(s),d=new Date(),a=localStorage.getItem('${ACCOUNT_STORAGE_KEY}'),` +
  "e=document.querySelector('script[type=module][src]');" +
  `if(f.v===${FIRST_SCREEN_FORMAT}` +
  `&&f.viewer===(a?JSON.parse(a).id:'${ANONYMOUS_VIEWER}')` +
  "&&f.day===d.getFullYear()+'-'+(d.getMonth()+1)+'-'+d.getDate()" +
  "&&(f.dark===null||f.dark===matchMedia('(prefers-color-scheme: dark)').matches)" +
  "&&f.theme===(document.documentElement.dataset.theme||'')" +
  "&&f.build===(e?e.getAttribute('src'):'')" +
  "&&typeof f.html==='string'){" +
  "var o=document.createElement('div'),n=document.createElement('div');" +
  `o.id='${FIRST_SCREEN_ELEMENT_ID}';o.setAttribute('aria-hidden','true');n.inert=true;` +
  'n.innerHTML=f.html;' +
  `for(var q=n.querySelectorAll('[${FIRST_SCREEN_STYLE_ATTRIBUTE}]'),i=0;i<q.length;i++)` +
  `q[i].style.cssText=q[i].getAttribute('${FIRST_SCREEN_STYLE_ATTRIBUTE}');` +
  'o.appendChild(n);document.body.appendChild(o);' +
  `setTimeout(function(){o.remove()},${FIRST_SCREEN_AT_MOST_MS})}}` +
  '}catch(x){}';
