import { Link } from '@tanstack/react-router';
import { ButtonLink } from '../../ui/button-link';
import { Card } from '../../ui/card';
import { Page, Section } from '../../ui/page';
import { Prose, TableScroll } from '../../ui/prose';

export function AboutPage() {
  return (
    <Page
      eyebrow="About"
      title="About Pipit"
      lead="Small, installable apps that you build anywhere, share with anyone, and use offline."
      width="content"
    >
      <Section title="What Pipit is" id="what-pipit-is">
        <Prose>
          <p>
            Pipit is a local-first platform for small apps: a habit tracker, a packing list, a
            workout log, a reading list, a study timer. The kind of tool that does one job well and
            fits in your pocket. You build them in a visual editor from screens, components,
            collections of data, and actions, then publish them for anyone to open, install, and
            use.
          </p>
          <p>
            Everyone on Pipit has a public profile at <code>{'/{username}'}</code>. Each published
            app has its own address at <code>{'/apps/{id}'}</code>, and visitors can install it as
            its own progressive web app on a phone, tablet, or computer, where it keeps working
            without a connection.
          </p>
          <p>
            The editor works fully offline on any device, and you can invite collaborators to build
            with you in real time, with live presence so you can see who is where. Want to see the
            result? Open the <Link to="/demo1">habit-tracker showcase</Link>, or{' '}
            <Link to="/demo">try the editor</Link> without an account; nothing you do there leaves
            your device.
          </p>
        </Prose>
      </Section>

      <Section title="Why local-first" id="local-first">
        <Prose>
          <p>
            Most web apps treat your device as a window onto someone else’s computer. Pipit turns
            that around: the copy on your device is the real one, and the server exists to keep your
            devices and your collaborators in step.
          </p>
        </Prose>
        <div className="grid">
          <Card title="Works offline" icon="📴">
            On a train, on a plane, or in a basement with one bar of signal, you can keep building
            and using apps. Changes are stored on your device and sync when you are back online.
          </Card>
          <Card title="Instant" icon="⚡">
            Reads and writes go to local storage first, so tapping a button or typing in a field
            never waits for a round trip to a server.
          </Card>
          <Card title="Your data on your device" icon="🔒">
            App definitions and your data in apps live in your browser’s storage (IndexedDB). The
            server holds a synced copy so your devices stay in step; it is not the only copy.
          </Card>
          <Card title="Merges without conflicts" icon="🔀">
            Apps are CRDT documents built with Yjs. Edits made offline on your phone and online on
            your laptop, or by two collaborators at once, merge automatically. No locks, no “someone
            else is editing,” no lost work.
          </Card>
          <Card title="No lock-in" icon="📦">
            Export any app as JSON, export all your data from your account settings, and run your
            own Pipit server if you would rather host everything yourself.
          </Card>
        </div>
      </Section>

      <Section title="Who Pipit is for" id="who-its-for">
        <div className="grid">
          <Card title="Creators" icon="🛠️">
            Build apps in your <Link to="/studio">studio</Link>, publish numbered versions, choose
            whether each app is private, unlisted, or public, and look back through version history
            whenever you need to. Found a public app you like? Remix it into your own studio.
          </Card>
          <Card title="Collaborators" icon="🤝">
            Join an app as an editor or a viewer. You see each other’s presence live, and editors
            change the app together in real time, online or off.
          </Card>
          <Card title="Visitors" icon="📱">
            Open an app, install it, and use it offline. What you put into an app is private to you:
            it stays on your device and, if you sign in, syncs only between your own devices.
          </Card>
          <Card title="Operators" icon="🖥️">
            Run Pipit yourself as a single Node.js process with SQLite or PostgreSQL. As the
            operator, you control the server’s data, limits, mail, and AI settings.
          </Card>
        </div>
      </Section>

      <Section title="Our principles" id="principles">
        <div className="grid">
          <Card title="Privacy by design" icon="🛡️">
            Creators never see their visitors’ data, and neither does anyone else: the server
            refuses every request for it except the visitor’s own. There are no ads and no
            third-party trackers, and the human check at sign-up is a self-hosted proof-of-work
            puzzle, not a third-party service.
          </Card>
          <Card title="Accessible" icon="♿">
            Everyone should be able to use the apps you make. Pipit is built on semantic HTML and
            keyboard-friendly controls, follows your light or dark preference, and works on small
            screens as well as large ones.
          </Card>
          <Card title="Open formats" icon="📂">
            Apps export as plain JSON and can be imported again. Pipit runs on open web standards
            (progressive web apps, IndexedDB, websockets) and stores its data in SQLite or
            PostgreSQL.
          </Card>
        </div>
      </Section>

      <Section title="How Pipit compares" id="compare">
        <Prose>
          <p>
            Many app builders are hosted services: the editor needs a live connection, and the
            records your users enter are stored on the builder’s servers, where the app’s owner can
            usually read them. Pipit takes a different approach.
          </p>
          <TableScroll label="Pipit compared with hosted app builders">
            <table>
              <caption className="visually-hidden">Pipit compared with hosted app builders</caption>
              <thead>
                <tr>
                  <th scope="col">Question</th>
                  <th scope="col">Typical hosted app builder</th>
                  <th scope="col">Pipit</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <th scope="row">Can I build without a connection?</th>
                  <td>Usually not; the editor runs on the server.</td>
                  <td>Yes, on any device. Changes sync when you reconnect.</td>
                </tr>
                <tr>
                  <th scope="row">Do published apps work offline?</th>
                  <td>Often only partly, or not at all.</td>
                  <td>Yes. Visitors can install an app and use it offline.</td>
                </tr>
                <tr>
                  <th scope="row">Where does users’ data live?</th>
                  <td>On the builder’s servers.</td>
                  <td>On the visitor’s device, synced to their own account if they sign in.</td>
                </tr>
                <tr>
                  <th scope="row">Who can see users’ data?</th>
                  <td>Typically the app’s owner, and the builder.</td>
                  <td>Only the visitor. Creators never see it.</td>
                </tr>
                <tr>
                  <th scope="row">What if two people edit at once?</th>
                  <td>Locks, warnings, or the last save wins.</td>
                  <td>Edits merge automatically, without conflicts.</td>
                </tr>
                <tr>
                  <th scope="row">Can I leave?</th>
                  <td>Exports vary, and the service is the only place to run your app.</td>
                  <td>Export apps as JSON, export all your data, or host your own server.</td>
                </tr>
              </tbody>
            </table>
          </TableScroll>
          <p>
            Curious about the details? Read the <Link to="/faq">FAQ</Link>, the{' '}
            <Link to="/docs/platform">platform guide</Link>, or see what the free plan includes on
            the <Link to="/pricing">pricing page</Link>.
          </p>
        </Prose>
      </Section>

      <Section title="Get started" id="get-started">
        <Prose>
          <p>
            Create an account to start building, try the editor right now without one, or browse
            what other people have made.
          </p>
        </Prose>
        <div className="row">
          <ButtonLink to="/signup" variant="primary">
            Create an account
          </ButtonLink>
          <ButtonLink to="/demo" variant="secondary">
            Try the editor
          </ButtonLink>
          <ButtonLink to="/explore" variant="secondary">
            Explore apps
          </ButtonLink>
        </div>
      </Section>

      <Section title="Credits" id="credits">
        <Prose>
          <p>
            Apps’ emoji icons, in pages and on home screens, use{' '}
            <a href="https://github.com/jdecked/twemoji">Twemoji</a> graphics, © Twitter, Inc. and
            other contributors, licensed under{' '}
            <a href="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</a>.
          </p>
        </Prose>
      </Section>
    </Page>
  );
}
