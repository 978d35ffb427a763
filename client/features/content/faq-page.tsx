import { Link } from '@tanstack/react-router';
import { Page } from '../../ui/page';
import { Prose } from '../../ui/prose';

export function FaqPage() {
  return (
    <Page
      eyebrow="Help"
      title="Frequently asked questions"
      lead="Straight answers about offline use, installing apps, privacy, limits, and more."
      width="prose"
    >
      <Prose>
        <h2 id="offline-and-sync">Offline and sync</h2>

        <details>
          <summary>Does Pipit work offline?</summary>
          <p>
            Yes. The editor and every installed app run from your device. Once you have opened Pipit
            or an app while online, you can keep creating, editing, and using apps with no
            connection at all. Your changes are stored in your browser’s IndexedDB and sync with the
            server as soon as you are back online.
          </p>
        </details>

        <details>
          <summary>What does “saved” mean on the sync badge?</summary>
          <p>The sync badge always tells you exactly where your changes are:</p>
          <ul>
            <li>
              <strong>offline</strong>: there is no connection. Keep working; your changes are safe
              on this device.
            </li>
            <li>
              <strong>connecting</strong>: Pipit is reaching the server.
            </li>
            <li>
              <strong>syncing (n pending)</strong>: changes are on their way, and <em>n</em> of them
              have not been confirmed yet.
            </li>
            <li>
              <strong>saved</strong>: the server has acknowledged storing every change made on this
              device. It is now safe to close the tab or pick up on another device.
            </li>
            <li>
              <strong>error (why)</strong>: something went wrong, and the badge says what. Your
              changes are still kept on this device.
            </li>
          </ul>
          <p>
            “Saved” never appears early: it only shows once the server has confirmed every local
            change.
          </p>
        </details>

        <details>
          <summary>What happens if two people edit the same app at the same time?</summary>
          <p>
            Their edits merge. Apps are CRDT documents (built with Yjs), so there are no locks and
            no “someone else is editing” warnings. Changes to different parts of the app simply
            combine. If two people type into the same text, both sets of typing are kept. If two
            people set the same setting to different values at the same moment, one value is kept,
            and it is the same one on every device, so everyone ends up looking at the same app. If
            you don’t like the result, change it back, or restore an earlier state from version
            history.
          </p>
        </details>

        <details>
          <summary>I edited offline on my phone and my laptop. Which version wins?</summary>
          <p>
            Both. Each device keeps its changes, and when they reconnect, the changes merge into one
            app without conflicts. Wait for the badge to show <strong>saved</strong> on each device
            to know everything has reached the server.
          </p>
        </details>

        <h2 id="installing">Installing apps</h2>

        <details>
          <summary>How do I install an app on an iPhone or iPad?</summary>
          <p>
            Open the app in Safari and go to its install page (<code>{'/apps/{id}/install'}</code>
            ). Tap the Share button, then choose <strong>Add to Home Screen</strong>. The app gets
            its own place on your Home Screen and opens like any other app, even offline. If you are
            on a computer, the install page shows a QR code you can scan with your phone to open the
            app there.
          </p>
        </details>

        <details>
          <summary>How do I install an app on Android?</summary>
          <p>
            Open the app’s install page in your browser. If your browser offers an install prompt,
            the page shows an install button; tap it and confirm. Otherwise, open the browser menu
            and choose <strong>Install app</strong> or <strong>Add to Home screen</strong>. The
            install page walks you through the steps for your browser.
          </p>
        </details>

        <details>
          <summary>Can I install an app on my computer?</summary>
          <p>
            Yes, in browsers that support installing web apps. Open the app’s install page and use
            the install button, or the install option in your browser’s address bar or menu. The app
            then opens in its own window and works offline. In browsers without that option, you can
            keep using the app in a normal tab.
          </p>
        </details>

        <details>
          <summary>Why did my iPhone forget my data, and how does installing help?</summary>
          <p>
            Safari on iPhone and iPad may clear the stored data of a website you have not used for a
            while (around seven days), and that includes IndexedDB, where Pipit keeps your data.
            Apps added to the Home Screen are treated as separate apps and are generally not cleared
            that way, so installing an app is the best way to keep its data on your device.
          </p>
          <p>
            Signing in helps too: your data in an app then syncs to your account, so even if a
            device clears it, it comes back the next time you open the app and sign in. Data kept
            without an account lives only on that one device.
          </p>
        </details>

        <h2 id="privacy">Privacy</h2>

        <details>
          <summary>Can the creator of an app see what I put into it?</summary>
          <p>
            No. Your data in an app is private to you. It is stored on your device and, when you are
            signed in, synced between your own devices in a document that belongs to you alone. The
            server refuses everyone but you, including the app’s creator, its collaborators, and
            every other user.
          </p>
        </details>

        <details>
          <summary>What can creators see?</summary>
          <p>
            Creators see their own app: its screens, components, collections, actions, theme,
            published versions, and the creator records they add as content, which every visitor
            sees read-only. They never see the records visitors create, or anything a visitor enters
            into a form, checklist, counter, or timer.
          </p>
        </details>

        <details>
          <summary>Do I need an account to use an app?</summary>
          <p>
            No. Anyone can open and install a published app. Without an account, your data stays on
            that device only. When you sign in, what you have already entered is merged into your
            account and synced across your devices.
          </p>
        </details>

        <details>
          <summary>Do visitors see my unfinished changes?</summary>
          <p>
            No. Visitors always get a published version, never your live draft. Each time you
            publish, Pipit saves an immutable snapshot as a new version (1, 2, 3, and so on), and
            visitors move to it. Until then, you and your collaborators can change the draft freely.
          </p>
        </details>

        <h2 id="collaboration">Collaboration</h2>

        <details>
          <summary>What is the difference between an editor and a viewer?</summary>
          <p>
            Both can open the app in the editor and see everyone’s presence live. Editors can change
            it: screens, components, collections, actions, and theme, all in real time. Viewers can
            follow along and look around but cannot make changes. Each app can have up to 5
            collaborators on the free plan. Collaborators never see visitors’ data.
          </p>
        </details>

        <details>
          <summary>Can I undo changes someone else made?</summary>
          <p>
            Yes. Version history lets you browse earlier states of an app and compare them with the
            published version. Restoring an earlier state adds it as a new change, so nothing in the
            history is lost and collaborators receive it like any other edit.
          </p>
        </details>

        <h2 id="limits">Limits and pricing</h2>

        <details>
          <summary>Does Pipit cost anything?</summary>
          <p>
            No. Pipit has one plan, and it is free: no payment, no card. The{' '}
            <Link to="/pricing">pricing page</Link> lists everything it includes.
          </p>
        </details>

        <details>
          <summary>What are the limits?</summary>
          <p>On the free plan, each account can have:</p>
          <ul>
            <li>25 apps, of which 10 can be published</li>
            <li>50 AI runs a day</li>
            <li>5 collaborators per app</li>
            <li>20 MB of uploads</li>
          </ul>
          <p>
            Each app can have up to 50 screens, 200 components per screen, 20 collections, 50 fields
            per collection, and 2,000 creator records, in an app document of up to 5 MB. The
            operator of a Pipit server can change every one of these limits.
          </p>
        </details>

        <h2 id="ai">AI actions</h2>

        <details>
          <summary>How do AI actions work?</summary>
          <p>
            AI actions are optional. They work when the operator of the server has connected an
            OpenAI-compatible provider; if not, Pipit tells you “AI is not configured on this
            server.” When you run an AI action, your prompt is sent to that provider. Runs started
            offline wait in a queue and run when you reconnect. Each account has a daily quota of AI
            runs (50 on the free plan). To add them to an app, read the{' '}
            <Link to="/docs/ai-actions">AI actions guide</Link>.
          </p>
        </details>

        <details>
          <summary>Can AI make or change an app for me?</summary>
          <p>
            Yes, when the server has an AI provider. On the Create page, describe the app you want
            and Pipit builds a first draft: collections, screens and buttons you can then edit like
            any other app. In the editor, Ask AI takes an instruction such as “add a rating from 1
            to 5 to books and show it in the list”, shows you the change it proposes, and makes it
            only when you apply it. The AI sees your app’s structure, never the records in it or
            your visitors’ data, and it never writes code. Undo takes the whole change back in one
            step, without touching what your collaborators did. Each request counts as one AI run of
            your daily quota.
          </p>
        </details>

        <h2 id="account-and-data">Your account and data</h2>

        <details>
          <summary>How do I export my data?</summary>
          <p>
            You can export any app as a JSON file and import it again later. To download everything
            at once, use the export option in <Link to="/account/settings">account settings</Link>.
          </p>
        </details>

        <details>
          <summary>How do I delete my account?</summary>
          <p>
            Go to <Link to="/account/settings">account settings</Link> and choose to delete your
            account. Every session is revoked, so you are signed out everywhere, and your apps are
            removed. Your username is released for others to use after 30 days. Export anything you
            want to keep first.
          </p>
        </details>

        <details>
          <summary>Can I sign in with my email address?</summary>
          <p>
            Yes. On the <Link to="/login">sign-in page</Link>, you can use either your username or
            your email address. If you forget your password, you can ask for a reset link, which is
            sent to your email address.
          </p>
        </details>

        <h2 id="self-hosting">Self-hosting</h2>

        <details>
          <summary>Can I run my own Pipit server?</summary>
          <p>
            Yes. Pipit is a single Node.js process (version 20.19 or later) that serves the web app,
            the REST API under <code>/api</code>, and the sync websocket. The command{' '}
            <code>npm start</code> installs, builds, and starts Pipit at{' '}
            <code>http://localhost:8080</code>, storing data in SQLite under <code>./data</code>. To
            use PostgreSQL instead, set <code>DATABASE_URL</code> to a PostgreSQL URL. As the
            operator, you control the server’s data, limits, mail, and AI settings. For the details,
            read the <Link to="/docs/platform">platform guide</Link>.
          </p>
        </details>

        <h2 id="more-help">Still have a question?</h2>
        <p>
          Send it through the <Link to="/contact">contact form</Link>, or tell us what could be
          better on the <Link to="/feedback">feedback page</Link>.
        </p>
      </Prose>
    </Page>
  );
}
