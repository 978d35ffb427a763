import { Link } from '@tanstack/react-router';
import { TableScroll } from '../../../ui/prose';

/** Publishing, visibility, roles, and installable apps. */
export function PublishingSections() {
  return (
    <>
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
          installed it can keep using it. Only the owner archives and restores an app (offline too:
          it reaches the server when you are back online); it is not part of the definition your
          collaborators edit.
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
    </>
  );
}
