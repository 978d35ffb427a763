import { Link } from '@tanstack/react-router';
import { TableScroll } from '../../../ui/prose';

/** Overview, documents and ids, and how sync works. */
export function ConceptsSections() {
  return (
    <>
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
    </>
  );
}
