import type { Context, Hono } from 'hono';
import { UNSUBSCRIBE_PATH } from '../creators/unsubscribe';
import { ApiError } from './api-error';
import type { ApiDependencies } from './api-dependencies';
import type { ApiEnv } from './context';
import { contentSecurityPolicy, sha256Source } from './security-headers';

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;min-height:100vh;display:grid;place-items:center;padding:24px;box-sizing:border-box;color-scheme:light dark}
main{max-width:32rem}
h1{font-size:1.25rem;font-weight:600;margin:0 0 .5rem}
button{font:inherit;font-weight:600;padding:.6rem 1.2rem;border-radius:999px;border:0;background:#1a6e4c;color:#fff;cursor:pointer}
button:focus-visible{outline:3px solid #1a6e4c;outline-offset:3px}`;

/** The pages' one inline style, allowed by its hash and nothing else. */
const UNSUBSCRIBE_CSP = contentSecurityPolicy([sha256Source(STYLE)]);

/** The path under the API's base that the route is registered at. */
const ROUTE = UNSUBSCRIBE_PATH.replace(/^\/api/, '');

/**
 * Whether a request is the digest's one-click unsubscribe: a mail provider's POST (RFC 8058)
 * comes from its own servers, with no Origin and a form body, so the API's same-origin and JSON
 * rules do not apply. The signed link is what it proves, not a session.
 */
export function isUnsubscribePost(method: string, path: string): boolean {
  return method === 'POST' && path === UNSUBSCRIBE_PATH;
}

/** A page with no user content at all: the words are ours, the form posts to the same link. */
function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · Pipit</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>`;
}

function answer(c: Context<ApiEnv>, status: 200 | 404, title: string, body: string) {
  c.header('Content-Security-Policy', UNSUBSCRIBE_CSP);
  c.header('Referrer-Policy', 'no-referrer');
  return c.html(page(title, body), status);
}

const BROKEN =
  'This link does not work: it may have been copied only in part. Turn the email off in Pipit’s account settings, under Notifications.';

/** A browser gets a page; anything else (a mail provider, a script) the API's JSON error. */
function broken(c: Context<ApiEnv>) {
  if (!(c.req.header('accept') ?? '').includes('text/html')) {
    throw new ApiError('not_found', BROKEN);
  }
  return answer(c, 404, 'This link does not work', `<p>${BROKEN}</p>`);
}

/**
 * The email digest's unsubscribe link (docs/product/routes.md): GET asks to confirm (a link
 * scanner that follows every link turns nothing off), POST turns the digest off. No sign-in: the
 * link is signed for one person (creators/unsubscribe.ts).
 */
export function registerUnsubscribe(app: Hono<ApiEnv>, deps: ApiDependencies): void {
  const { storage, clock, unsubscribe } = deps;
  const personOf = (c: Context<ApiEnv>) => unsubscribe.verify(c.req.query('u'), c.req.query('t'));

  app.get(ROUTE, async (c) => {
    if (!(await personOf(c))) return broken(c);
    return answer(
      c,
      200,
      'Stop Pipit’s daily email?',
      '<p>You will no longer get the email that tells you what happened to your apps. You can turn it back on in your account settings.</p>\n<form method="post"><button type="submit">Stop these emails</button></form>',
    );
  });

  app.post(ROUTE, async (c) => {
    const userId = await personOf(c);
    if (!userId) return broken(c);
    // A deleted account's link changes nothing (it has no choices left to keep).
    const user = await storage.users.findById(userId);
    if (user && user.deletedAt === null) {
      await storage.creatorNotifications.setEmailDigest(userId, 'off', clock.now());
      await storage.creatorNotifications.dropPending(userId);
    }
    return answer(
      c,
      200,
      'You will get no more of these emails',
      '<p>Pipit’s daily email about your apps is off. To turn it back on, open your account settings, under Notifications.</p>',
    );
  });
}
