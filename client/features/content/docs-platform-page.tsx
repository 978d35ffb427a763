import { Link } from '@tanstack/react-router';
import { TableScroll } from '../../ui/prose';
import { DocsLayout } from './docs-layout';

const SECTIONS = [
  { id: 'overview', title: 'Overview' },
  { id: 'documents-and-ids', title: 'Documents and ids' },
  { id: 'how-sync-works', title: 'How sync works' },
  { id: 'the-app-definition', title: 'The app definition' },
  { id: 'publishing-visibility-and-roles', title: 'Publishing, visibility and roles' },
  { id: 'installable-apps', title: 'Installable apps' },
  { id: 'self-hosting', title: 'Self-hosting' },
  { id: 'rest-api', title: 'REST API' },
] as const;

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

const START_COMMANDS = `# SQLite under ./data, on http://localhost:8080
npm start

# PostgreSQL on another port
PORT=3000 DATABASE_URL=postgres://pipit@db.internal:5432/pipit npm start`;

const NGINX_EXAMPLE = `server {
  listen 443 ssl;
  server_name pipit.example.org;
  # ssl_certificate and ssl_certificate_key go here

  location / {
    proxy_pass http://127.0.0.1:8080;
    proxy_http_version 1.1;
    proxy_set_header Host $host;
    proxy_set_header Upgrade $http_upgrade;
    proxy_set_header Connection "upgrade";
  }
}`;

const ENVIRONMENT = [
  {
    name: 'PORT',
    defaultValue: '8080',
    description: 'The port for the web app, the REST API and the sync websocket.',
  },
  {
    name: 'HOST',
    defaultValue: 'All interfaces',
    description:
      'The address to listen on, for example 127.0.0.1 to accept local connections only.',
  },
  {
    name: 'DATA_DIR',
    defaultValue: './data',
    description: 'Where the SQLite database (pipit.sqlite) and its WAL files live.',
  },
  {
    name: 'DATABASE_URL',
    defaultValue: 'Unset (SQLite)',
    description: 'A postgres:// URL, such as postgres://user@host:5432/db, to use PostgreSQL.',
  },
  {
    name: 'PUBLIC_ORIGIN',
    defaultValue: 'Unset',
    description:
      'The address people use when the server is behind a proxy, for example ' +
      'https://pipit.example.org. Used for origin checks.',
  },
  {
    name: 'LOG_LEVEL',
    defaultValue: 'info',
    description: 'One of fatal, error, warn, info, debug, trace, or silent.',
  },
  {
    name: 'SHUTDOWN_TIMEOUT_MS',
    defaultValue: '15000',
    description: 'The time limit, in milliseconds, for a graceful shutdown.',
  },
  {
    name: 'CLIENT_DIR',
    defaultValue: 'dist/client',
    description: 'The folder holding the built web app that the server serves.',
  },
] as const;

const ERROR_CODES = [
  ['validation_failed', 400, 'Some input is invalid. fields says which, and why.'],
  ['username_taken', 409, 'Someone already has that username.'],
  ['email_taken', 409, 'An account already uses that email address.'],
  ['invalid_credentials', 401, 'The email address or password is wrong.'],
  ['email_not_verified', 403, 'Confirm the email address of the account first.'],
  ['token_invalid', 400, 'A link from an email, such as a password reset, is not valid.'],
  ['token_expired', 410, 'A link from an email has expired. Ask for a new one.'],
  ['token_used', 410, 'A link from an email has already been used.'],
  ['rate_limited', 429, 'Too many attempts. retryAfter says how many seconds to wait.'],
  ['human_check_failed', 403, 'The check that a person, not a script, sent the form failed.'],
  ['not_found', 404, 'Nothing was found at that address.'],
  ['forbidden', 403, 'You may not do this, for example because your role does not allow it.'],
  ['unauthenticated', 401, 'Sign in first.'],
  ['document_too_large', 413, 'A document would grow past 5 MB.'],
  ['publish_invalid', 422, 'The definition cannot be published. fields lists each problem.'],
  ['ai_not_configured', 503, 'This server has no AI provider connected.'],
  ['ai_quota_exceeded', 429, 'You have used your AI runs for today. The quota resets daily.'],
  ['payload_too_large', 413, 'The request body is larger than 1 MB.'],
  ['unsupported_media_type', 415, 'The request body is not sent as application/json.'],
  ['internal', 500, 'Something failed on the server. The error carries a digest.'],
] as const;

/** `/docs/platform`: how Pipit works, from documents and sync to self-hosting and the REST API. */
export function DocsPlatformPage() {
  return (
    <DocsLayout
      title="Platform guide"
      lead="How Pipit stores, syncs, publishes and installs apps, how to host it, and its REST API."
    >
      <nav aria-label="On this page">
        <p>On this page:</p>
        <ul>
          {SECTIONS.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>{section.title}</a>
            </li>
          ))}
        </ul>
      </nav>

      <h2 id="overview">Overview</h2>
      <p>
        Pipit is a local-first platform for small, installable apps. Everything you make and
        everything you enter lives on your device first, so Pipit keeps working without a network.
        The server is where your devices and your collaborators meet: it stores every change and
        passes it on.
      </p>
      <p>Three kinds of people use Pipit:</p>
      <ul>
        <li>
          <strong>Creators</strong> build apps in a visual editor in the{' '}
          <Link to="/studio">studio</Link>. The editor works fully offline, on any device. To begin,
          go to <Link to="/create">Create</Link>.
        </li>
        <li>
          <strong>Collaborators</strong> are invited to an app by username, as an <em>editor</em> or
          a <em>viewer</em>. Editors co-edit in real time and see who else is there. Viewers can
          read, but not change, the app; the server enforces this.
        </li>
        <li>
          <strong>Visitors</strong> open a published app, install it as its own progressive web app
          and use it offline. What they enter is private to them and synced across the devices they
          sign in on.
        </li>
      </ul>
      <p>
        Everyone has a public profile at <code>/{'{username}'}</code> that lists their public apps.
        To see what others have made, visit <Link to="/explore">Explore</Link>, or try the{' '}
        <Link to="/demo">demo</Link>.
      </p>

      <h2 id="documents-and-ids">Documents and ids</h2>
      <p>
        Everything that syncs is a <em>document</em>: a Yjs document, which is a CRDT (a data
        structure that merges concurrent changes without conflicts). Each document has a name that
        says what it holds and who may read it.
      </p>
      <TableScroll label="Documents and ids">
        <table>
          <thead>
            <tr>
              <th scope="col">Document</th>
              <th scope="col">What it holds</th>
              <th scope="col">Who can read it</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>
                <code>app/{'{appId}'}</code>
              </td>
              <td>The app definition: its screens, components, collections, actions and theme.</td>
              <td>
                The owner and the app&apos;s collaborators. Visitors get a published version
                instead.
              </td>
            </tr>
            <tr>
              <td>
                <code>user/{'{userId}'}</code>
              </td>
              <td>
                A person&apos;s private index: their apps, their library and their preferences.
              </td>
              <td>Only that person, on each device they sign in on.</td>
            </tr>
            <tr>
              <td>
                <code>
                  data/{'{appId}'}/{'{userId}'}
                </code>
              </td>
              <td>A visitor&apos;s own data for one app, such as the records they create.</td>
              <td>Only that visitor. Not even the app&apos;s creator can read it.</td>
            </tr>
          </tbody>
        </table>
      </TableScroll>
      <p>
        Visitors who have not signed in keep their data for an app on their device only. When they
        sign in, it is merged into their account and syncs from then on.
      </p>
      <h3>Ids</h3>
      <p>
        Ids, such as an app&apos;s id, are made on the device, not by the server. Each one is 26
        characters long and carries 130 random bits, so two devices will never realistically make
        the same one. That is what lets you create a new app on a plane and publish it once you
        land.
      </p>

      <h2 id="how-sync-works">How sync works</h2>
      <h3>Offline first</h3>
      <p>
        Every document is stored in your browser&apos;s IndexedDB and edited there. That is why the
        editor opens, and keeps working, with no network at all: it never waits for the server.
      </p>
      <h3>Online</h3>
      <p>
        When a network is available, the browser connects over a websocket to the same server that
        served the page, at <code>/api/sync</code>, using the Hocuspocus protocol. The connection is
        authenticated by your session cookie. Changes flow both ways and merge without conflicts: if
        you and a collaborator edit the same screen at the same time, both edits survive. The server
        stores every document in its database.
      </p>
      <p>
        Edits you make offline sync by themselves when the network returns, including edits to apps
        you no longer have open. There is nothing to press.
      </p>
      <h3>The sync badge</h3>
      <p>The sync badge tells you where your changes are.</p>
      <TableScroll label="The sync badge">
        <table>
          <thead>
            <tr>
              <th scope="col">Badge</th>
              <th scope="col">What it means</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>
                <code>offline</code>
              </td>
              <td>
                There is no network. Keep working: changes are stored on this device and sync later.
              </td>
            </tr>
            <tr>
              <td>
                <code>connecting</code>
              </td>
              <td>The browser is opening its connection to the server.</td>
            </tr>
            <tr>
              <td>
                <code>syncing (n pending)</code>
              </td>
              <td>
                Connected, with <em>n</em> local changes that the server has not yet confirmed.
              </td>
            </tr>
            <tr>
              <td>
                <code>saved</code>
              </td>
              <td>The server has acknowledged storing every change made on this device.</td>
            </tr>
            <tr>
              <td>
                <code>error (why)</code>
              </td>
              <td>
                Something stops syncing, and the badge says what. Your changes stay on this device.
              </td>
            </tr>
          </tbody>
        </table>
      </TableScroll>
      <p>
        <strong>What &ldquo;saved&rdquo; means.</strong> The badge shows <code>saved</code> only
        once the server has acknowledged that it stored every local change. A change that has only
        been sent does not count. When you see <code>saved</code>, you can close the tab or pick up
        on another device and nothing is missing.
      </p>
      <h3>Undo and version history</h3>
      <ul>
        <li>
          Undo is per person: it takes back your own changes and never undoes a collaborator&apos;s.
        </li>
        <li>
          Version history lets you browse earlier states of an app, compare the draft with the
          published version, and restore an earlier state. A restore is recorded as a new change, so
          nothing in the history is lost and collaborators receive it like any other edit.
        </li>
      </ul>

      <h2 id="the-app-definition">The app definition</h2>
      <p>
        An app is described by its definition, stored in the <code>app/{'{appId}'}</code> document.
        A schema validates every definition, and each definition stores the{' '}
        <code>schemaVersion</code> it was written with. Definitions written with an older version
        are migrated forward automatically. If a component is ever invalid, the app shows a
        placeholder in its place instead of crashing.
      </p>
      <h3>Meta</h3>
      <TableScroll label="Meta">
        <table>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Rules</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>
                <code>title</code>
              </td>
              <td>1 to 60 characters.</td>
            </tr>
            <tr>
              <td>
                <code>description</code>
              </td>
              <td>Up to 500 characters.</td>
            </tr>
            <tr>
              <td>
                <code>icon</code>
              </td>
              <td>An emoji on a background color, or an uploaded image.</td>
            </tr>
            <tr>
              <td>
                <code>tags</code>
              </td>
              <td>Up to 5 tags, each up to 24 characters.</td>
            </tr>
            <tr>
              <td>
                <code>archived</code>
              </td>
              <td>Whether the app is in the archive.</td>
            </tr>
          </tbody>
        </table>
      </TableScroll>
      <h3>Theme</h3>
      <p>
        Colors, corner radius, font, density and light or dark mode. See{' '}
        <Link to="/docs/themes">Themes</Link> for every setting.
      </p>
      <h3>Screens</h3>
      <p>
        An app has an ordered list of screens; the order is the order of the app&apos;s navigation.
        Each screen has an id, a title, an icon and an ordered list of components.
      </p>
      <h3>Components</h3>
      <TableScroll label="Components">
        <table>
          <thead>
            <tr>
              <th scope="col">Component</th>
              <th scope="col">What it does</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>Heading</td>
              <td>A title for a part of the screen.</td>
            </tr>
            <tr>
              <td>Text</td>
              <td>Paragraphs in safe markdown. Raw HTML is not allowed.</td>
            </tr>
            <tr>
              <td>Image</td>
              <td>A picture.</td>
            </tr>
            <tr>
              <td>Button</td>
              <td>Runs an action when tapped.</td>
            </tr>
            <tr>
              <td>List</td>
              <td>
                The records of a collection, showing a title field and a subtitle field, with an
                optional filter, sort order and text for when the list is empty. Tapping a record
                opens a screen with that record.
              </td>
            </tr>
            <tr>
              <td>Detail</td>
              <td>Chosen fields of the current record.</td>
            </tr>
            <tr>
              <td>Form</td>
              <td>Creates a new record or edits the current one.</td>
            </tr>
            <tr>
              <td>Checklist</td>
              <td>Records with a checkbox that toggles one of their boolean fields.</td>
            </tr>
            <tr>
              <td>Counter</td>
              <td>A number that counts something, such as glasses of water today.</td>
            </tr>
            <tr>
              <td>Stat</td>
              <td>The count, sum, average, minimum or maximum over a collection.</td>
            </tr>
            <tr>
              <td>Chart</td>
              <td>A bar, line or pie chart over a collection.</td>
            </tr>
            <tr>
              <td>Timer</td>
              <td>A timer, for workouts, cooking and the like.</td>
            </tr>
            <tr>
              <td>Divider</td>
              <td>A line that separates parts of a screen.</td>
            </tr>
            <tr>
              <td>Link</td>
              <td>A link to a web address or a relative address.</td>
            </tr>
            <tr>
              <td>AI</td>
              <td>
                Runs an AI action and shows its result. See{' '}
                <Link to="/docs/ai-actions">AI actions</Link>.
              </td>
            </tr>
          </tbody>
        </table>
      </TableScroll>
      <h3>Collections</h3>
      <p>
        A collection is a kind of record, such as <em>Recipes</em> or <em>Books</em>. It has an id,
        a name and fields. Each field has one of these types:
      </p>
      <ul>
        <li>text and long text</li>
        <li>number</li>
        <li>boolean (yes or no)</li>
        <li>date</li>
        <li>select (one of a list of options)</li>
        <li>url and email</li>
      </ul>
      <p>
        A field can be required, can have a default value, and a select field has its options. A
        collection can also include <em>creator records</em>: content that you write and every
        visitor sees, such as a starter set of recipes. Visitors can read creator records but not
        change them. Records that visitors create are stored in their own private data document.
      </p>
      <h3>Actions</h3>
      <p>An action is an ordered list of steps that run one after another:</p>
      <ul>
        <li>
          <strong>Navigate</strong> to a screen, or go <strong>back</strong>.
        </li>
        <li>
          <strong>Create</strong>, <strong>update</strong> or <strong>delete</strong> a record.
        </li>
        <li>
          <strong>Set</strong> a field.
        </li>
        <li>
          <strong>Open</strong> a URL.
        </li>
        <li>
          Show a <strong>toast</strong>, a short message that disappears by itself.
        </li>
        <li>
          <strong>Run</strong> an AI action.
        </li>
      </ul>
      <h3>Template language</h3>
      <p>Values in components and actions can include placeholders in double braces:</p>
      <dl>
        <dt>
          <code>{'{{record.field}}'}</code>
        </dt>
        <dd>A field of the current record, for example {'{{record.title}}'}.</dd>
        <dt>
          <code>{'{{input.field}}'}</code>
        </dt>
        <dd>A field of the input the action received, such as a value entered in a form.</dd>
        <dt>
          <code>{'{{user.name}}'}</code>
        </dt>
        <dd>The name of the person using the app.</dd>
      </dl>
      <p>
        The template language only substitutes values. It never evaluates code, so a value can never
        run anything, whatever it contains.
      </p>
      <h3>Limits</h3>
      <p>
        Each limit is enforced with a clear error that says which one was reached, so an app never
        fails silently.
      </p>
      <TableScroll label="Limits">
        <table>
          <thead>
            <tr>
              <th scope="col">What</th>
              <th scope="col">Limit</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>Screens per app</td>
              <td>50</td>
            </tr>
            <tr>
              <td>Components per screen</td>
              <td>200</td>
            </tr>
            <tr>
              <td>Collections per app</td>
              <td>20</td>
            </tr>
            <tr>
              <td>Fields per collection</td>
              <td>50</td>
            </tr>
            <tr>
              <td>Creator records per app</td>
              <td>2,000</td>
            </tr>
            <tr>
              <td>Size of one document</td>
              <td>5 MB</td>
            </tr>
          </tbody>
        </table>
      </TableScroll>
      <h3>Links</h3>
      <p>
        Links in anything people write, from text to link components to open-URL steps, must start
        with <code>http://</code> or <code>https://</code>, or be relative to the app. Addresses
        such as <code>javascript:</code> are never accepted.
      </p>

      <h2 id="publishing-visibility-and-roles">Publishing, visibility and roles</h2>
      <h3>Publishing</h3>
      <p>
        The owner publishes an app from the editor. The server validates the definition and stores
        it as an immutable, numbered version: 1, 2, and so on. Visitors always get a published
        version, never the live draft, so you can keep editing without anyone seeing half-finished
        work.
      </p>
      <p>
        If the definition has problems, publishing fails with the error code{' '}
        <code>publish_invalid</code>, listing where in the definition each problem is. The editor
        turns each one into a message you can click to go straight to the problem.
      </p>
      <h3>Visibility</h3>
      <TableScroll label="Visibility">
        <table>
          <thead>
            <tr>
              <th scope="col">Visibility</th>
              <th scope="col">Who can open the app</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>
                <code>private</code>
              </td>
              <td>The owner and collaborators only.</td>
            </tr>
            <tr>
              <td>
                <code>unlisted</code>
              </td>
              <td>Anyone with the link.</td>
            </tr>
            <tr>
              <td>
                <code>public</code>
              </td>
              <td>
                Anyone with the link, and the app is also listed on your profile and in{' '}
                <Link to="/explore">Explore</Link>.
              </td>
            </tr>
          </tbody>
        </table>
      </TableScroll>
      <h3>Unpublishing, archiving and deleting</h3>
      <ul>
        <li>
          <strong>Unpublish</strong> withdraws the app from visitors until you publish again.
        </li>
        <li>
          <strong>Archive</strong> removes the app from your profile and from Explore. People who
          installed it can keep using it.
        </li>
        <li>
          <strong>Delete forever</strong> is available from the archive. It cannot be undone.
        </li>
      </ul>
      <h3>Roles</h3>
      <TableScroll label="Roles">
        <table>
          <thead>
            <tr>
              <th scope="col">Role</th>
              <th scope="col">What they can do</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>Owner</td>
              <td>
                Everything: edit, publish, change visibility, invite collaborators, archive and
                delete.
              </td>
            </tr>
            <tr>
              <td>Editor</td>
              <td>Edit the definition, in real time with others.</td>
            </tr>
            <tr>
              <td>Viewer</td>
              <td>Read the live definition, without changing it.</td>
            </tr>
          </tbody>
        </table>
      </TableScroll>
      <h3>Remixing</h3>
      <p>
        Remix copies the published version of a public app into your studio as a new app of your
        own. The copy keeps its lineage, so it is always clear which app it came from.
      </p>

      <h2 id="installable-apps">Installable apps</h2>
      <p>
        Every published app can be installed as its own progressive web app, with its own icon and
        name on the home screen, and several Pipit apps install side by side. Each app has its own
        web app manifest:
      </p>
      <TableScroll label="Installable apps">
        <table>
          <thead>
            <tr>
              <th scope="col">Manifest field</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>
                <code>id</code>, <code>start_url</code>, <code>scope</code>
              </td>
              <td>
                All <code>/apps/{'{id}'}/pwa</code>, which keeps each app separate from the others.
              </td>
            </tr>
            <tr>
              <td>
                <code>name</code>
              </td>
              <td>The app&apos;s title.</td>
            </tr>
            <tr>
              <td>
                <code>theme_color</code>, <code>background_color</code>
              </td>
              <td>
                From the app&apos;s theme. See <Link to="/docs/themes">Themes</Link>.
              </td>
            </tr>
            <tr>
              <td>
                <code>icons</code>
              </td>
              <td>192 and 512 pixel icons, a maskable icon, and a 180 pixel Apple touch icon.</td>
            </tr>
          </tbody>
        </table>
      </TableScroll>
      <ul>
        <li>After the first open, an installed app works with no network at all.</li>
        <li>
          When the owner publishes again, the installed app shows a &ldquo;new version&rdquo;
          prompt.
        </li>
        <li>
          A visitor&apos;s data stays private to them and syncs across the devices they sign in on.
        </li>
      </ul>
      <h3>iPhone and iPad</h3>
      <p>
        Safari on iOS and iPadOS does not offer an install prompt. Instead, tap{' '}
        <strong>Share → Add to Home Screen</strong>.
      </p>
      <p>
        iOS may delete the stored data of a website that is not installed after 7 days without a
        visit. Installing the app protects its data, and so does Pipit&apos;s request for persistent
        storage. If you rely on an app on an iPhone, install it.
      </p>

      <h2 id="self-hosting">Self-hosting</h2>
      <p>
        Pipit runs as one Node.js process that serves the web app, the REST API and the sync
        websocket on the same port.
      </p>
      <h3>Requirements</h3>
      <ul>
        <li>Node.js 20.19 or newer, with npm.</li>
        <li>A C++ toolchain, only if the SQLite driver has to be compiled for your platform.</li>
      </ul>
      <h3>Starting the server</h3>
      <p>
        Run <code>npm start</code> in the project folder. It installs the dependencies, using a
        pinned version of pnpm fetched through npx, then builds the web app and starts the server.
        Open <code>http://localhost:8080</code> in a browser to use it.
      </p>
      <pre>
        <code>{START_COMMANDS}</code>
      </pre>
      <p>
        If a setting has an invalid value, the server does not start and names the variable to fix.
        To run the whole test suite, use <code>npm test</code>.
      </p>
      <h3>Storage</h3>
      <dl>
        <dt>SQLite (the default)</dt>
        <dd>
          Nothing to install. The database is the file <code>pipit.sqlite</code> in the data folder
          (<code>./data</code> unless you set <code>DATA_DIR</code>), in WAL mode.
        </dd>
        <dt>PostgreSQL</dt>
        <dd>
          Set <code>DATABASE_URL</code>, for example <code>postgres://user@host:5432/db</code>.
        </dd>
      </dl>
      <p>
        Either way, schema migrations apply automatically at start-up. To see which engine is in
        use, call <code>GET /api/health</code>.
      </p>
      <h3>Environment variables</h3>
      <TableScroll label="Environment variables">
        <table>
          <thead>
            <tr>
              <th scope="col">Variable</th>
              <th scope="col">Default</th>
              <th scope="col">What it does</th>
            </tr>
          </thead>
          <tbody>
            {ENVIRONMENT.map((variable) => (
              <tr key={variable.name}>
                <td>
                  <code>{variable.name}</code>
                </td>
                <td>{variable.defaultValue}</td>
                <td>{variable.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <p>Logs are JSON lines on standard output, ready for any log collector.</p>
      <h3>Behind a reverse proxy</h3>
      <p>For production, put Pipit behind a reverse proxy that:</p>
      <ul>
        <li>terminates TLS, so people connect over HTTPS;</li>
        <li>
          forwards websockets, passing on the <code>Upgrade</code> and <code>Connection</code>{' '}
          headers, or sync cannot connect.
        </li>
      </ul>
      <p>
        Set <code>PUBLIC_ORIGIN</code> to the address people use, such as{' '}
        <code>https://pipit.example.org</code>, so that origin checks accept their requests. With
        nginx, for example:
      </p>
      <pre>
        <code>{NGINX_EXAMPLE}</code>
      </pre>
      <h3>Backups</h3>
      <p>
        Back up the data folder, or your PostgreSQL database if you use one. That holds every
        account, app and document on the server.
      </p>
      <ul>
        <li>
          With SQLite, copy the whole data folder while the server is stopped, including any{' '}
          <code>-wal</code> and <code>-shm</code> files next to <code>pipit.sqlite</code>, or use
          SQLite&apos;s own online backup.
        </li>
        <li>
          With PostgreSQL, use your usual tools, such as <code>pg_dump</code>.
        </li>
      </ul>
      <h3>Shutting down</h3>
      <p>
        On <code>SIGTERM</code>, the server stops accepting connections, stores every pending
        document change, then exits. <code>SHUTDOWN_TIMEOUT_MS</code> sets how long it may take.
        While the server is down, people keep working on their devices, and their changes sync when
        it is back.
      </p>

      <h2 id="rest-api">REST API</h2>
      <p>
        This is a reference for the endpoints that exist today. More endpoints are documented here
        as they ship.
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
            {ERROR_CODES.map(([code, status, meaning]) => (
              <tr key={code}>
                <td>
                  <code>{code}</code>
                </td>
                <td>{status}</td>
                <td>{meaning}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <h3>GET /api/health</h3>
      <p>
        Whether the server is up, which storage engine it uses (<code>sqlite</code> or{' '}
        <code>postgres</code>) and its version. Useful for monitoring and for load balancer health
        checks.
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
    </DocsLayout>
  );
}
