import {
  CLIENT_ONLY_ERROR_CODES,
  ERROR_MEANINGS,
  ERROR_STATUS,
  type ErrorCode,
} from '@pipit/protocol';
import { TableScroll } from '../../../ui/prose';

const HEALTH_RESPONSE = `GET /api/health

200 OK
{
  "status": "ok",
  "storage": "sqlite",
  "version": "0.1.0"
}`;

const PROFILE_RESPONSE = `GET /api/profiles/robin

200 OK
{
  "username": "robin",
  "displayName": "Robin Park",
  "bio": "I make tiny apps for my garden and my book club.",
  "avatar": { "kind": "emoji", "emoji": "🌱", "color": "#1a7f5a" },
  "links": [{ "label": "Blog", "url": "https://robin.example.org" }],
  "joinedAt": "2025-03-14T09:26:53.000Z"
}`;

const PROFILE_NOT_FOUND = `GET /api/profiles/nobody-here

404 Not Found
{
  "error": {
    "code": "not_found",
    "message": "No one goes by that name here. Check the spelling of the address."
  }
}`;

const ERROR_SHAPE = `{
  "error": {
    "code": "validation_failed",
    "message": "A short, human-readable explanation.",
    "fields": { "username": "What is wrong with this field." }
  }
}`;

const ACCOUNT_ENDPOINTS = [
  ['GET /api/auth/session', 'Who is signed in: { account } or { account: null }.'],
  ['POST /api/auth/signup', 'Create an account and sign in (check). Sends a verification link.'],
  ['POST /api/auth/login', 'Sign in by username or email (check).'],
  ['POST /api/auth/logout', 'End this session.'],
  ['POST /api/auth/verify-email', 'Use a verification link’s token.'],
  ['POST /api/auth/resend-verification', 'Send a fresh verification link (check, signed in).'],
  [
    'POST /api/auth/forgot-password',
    'Email a reset link; the same answer for any address (check).',
  ],
  ['POST /api/auth/reset-password', 'Set a new password from a link; ends every other session.'],
  ['POST /api/auth/confirm-email-change', 'Use an email-change link; ends every session.'],
  ['GET /api/human-check/challenge?path=&method=', 'A challenge for one protected request.'],
  ['GET /api/usernames/{username}', 'Whether a username is free, and why not.'],
  ['GET /api/account', 'Your account (signed in).'],
  ['PATCH /api/account/profile', 'Change name, username, bio, links or emoji avatar (signed in).'],
  ['POST /api/account/avatar', 'Upload a picture as the image body (signed in).'],
  ['POST /api/account/email', 'Ask to change your email, with your password (signed in).'],
  ['POST /api/account/password', 'Change your password; ends your other sessions (signed in).'],
  ['GET /api/account/sessions', 'Where you are signed in (signed in).'],
  ['DELETE /api/account/sessions/{id}', 'End one of your sessions (signed in).'],
  ['POST /api/account/sessions/revoke-others', 'End all your other sessions (signed in).'],
  [
    'GET /api/account/export',
    'Everything Pipit keeps about your account, with every app you own, as a .pipit file (signed in).',
  ],
  [
    'GET /api/apps/{id}/export?data=1',
    'An app as a .pipit file; data=1 adds your own data in it (owner and editors).',
  ],
  [
    'POST /api/apps/import?copy=1',
    'Import a .pipit file (the file as the body); copy=1 imports it again as a copy (signed in).',
  ],
  ['POST /api/apps/{id}/images', 'Upload an image for an app (the image as the body).'],
  ['DELETE /api/account', 'Delete your account, with your password (signed in).'],
  ['POST /api/messages', 'Send a contact or feedback message (check).'],
] as const;

/** The codes a caller of the API can meet: `offline` is the client's own, never an answer. */
const API_ERRORS = Object.entries(ERROR_MEANINGS).filter(
  ([code]) => !CLIENT_ONLY_ERROR_CODES.has(code as ErrorCode),
);

/** The REST API: conventions, errors, and the endpoints that exist. */
export function RestApiSection() {
  return (
    <>
      <h2 id="rest-api">REST API</h2>
      <p>
        This is a reference for the endpoints that exist today; endpoints for apps are documented
        here as they ship.
      </p>
      <h3>Conventions</h3>
      <ul>
        <li>
          Every endpoint is under <code>/api</code> and speaks JSON.
        </li>
        <li>
          Requests that change state must come from the same origin: the browser&apos;s{' '}
          <code>Sec-Fetch-Site: same-origin</code> header, or an <code>Origin</code> header that
          matches exactly. They must also send <code>Content-Type: application/json</code>.
        </li>
        <li>
          Request bodies larger than 1 MB are refused with <code>payload_too_large</code>.
        </li>
      </ul>
      <h3>Errors</h3>
      <p>
        Every error has the same shape and the matching HTTP status. <code>fields</code> appears
        when particular inputs are at fault, and maps each one to what is wrong with it.
      </p>
      <pre>
        <code>{ERROR_SHAPE}</code>
      </pre>
      <p>
        An <code>internal</code> error also carries a <code>digest</code>. The same digest is in the
        server log, so quote it when you report a problem; it lets the operator find exactly what
        went wrong. A <code>rate_limited</code> error includes <code>retryAfter</code>, the number
        of seconds to wait before trying again.
      </p>
      <TableScroll label="Errors">
        <table>
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col">Status</th>
              <th scope="col">Meaning</th>
            </tr>
          </thead>
          <tbody>
            {API_ERRORS.map(([code, meaning]) => (
              <tr key={code}>
                <td>
                  <code>{code}</code>
                </td>
                <td>{ERROR_STATUS[code as ErrorCode]}</td>
                <td>{meaning}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <h3>GET /api/health</h3>
      <p>
        Whether the server process is up (a liveness check: it does not query the database), which
        storage engine it uses (<code>sqlite</code> or <code>postgres</code>) and its version.
      </p>
      <pre>
        <code>{HEALTH_RESPONSE}</code>
      </pre>
      <h3>GET /api/profiles/{'{username}'}</h3>
      <p>
        What anyone may see of a person: username, display name, bio, avatar (an emoji on a color,
        or an image), up to five links, and when they joined. If no one has that username, the
        answer is a 404 with <code>not_found</code>.
      </p>
      <pre>
        <code>{PROFILE_RESPONSE}</code>
      </pre>
      <pre>
        <code>{PROFILE_NOT_FOUND}</code>
      </pre>
      <h3>Accounts</h3>
      <p>
        The account endpoints answer the same way. Those marked with a check need a solved
        human-check challenge in the <code>X-Human-Check</code> headers (the page&apos;s scripts add
        it); the others marked signed-in need the session cookie.
      </p>
      <TableScroll label="Account endpoints">
        <table>
          <thead>
            <tr>
              <th scope="col">Request</th>
              <th scope="col">What it does</th>
            </tr>
          </thead>
          <tbody>
            {ACCOUNT_ENDPOINTS.map(([request, meaning]) => (
              <tr key={request}>
                <td>
                  <code>{request}</code>
                </td>
                <td>{meaning}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}
