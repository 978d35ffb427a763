import { Link } from '@tanstack/react-router';
import { Page } from '../../ui/page';
import { Prose, TableScroll } from '../../ui/prose';

export function LegalPrivacyPage() {
  return (
    <Page
      eyebrow="Legal"
      title="Privacy policy"
      lead="What this Pipit server collects, what it never sees, and the choices you have."
      width="prose"
    >
      <Prose>
        <p>
          <strong>Last updated:</strong> <time dateTime="2026-11-21">21 November 2026</time>
        </p>

        <h2 id="who-we-are">Who we are</h2>
        <p>
          This policy is written by the operator of this Pipit server (“the operator,” “we”), the
          person or organization that runs it and controls its data. Pipit is local-first: much of
          what you do stays on your own devices, and the server keeps a synced copy so your devices
          and collaborators stay in step.
        </p>

        <h2 id="summary">The short version</h2>
        <ul>
          <li>
            What you enter into someone else’s app is private to you. The app’s creator never sees
            it, and neither does anyone else.
          </li>
          <li>There are no ads, no third-party trackers, and no third-party bot check.</li>
          <li>We use one session cookie, only to keep you signed in.</li>
          <li>
            In <Link to="/account/settings">account settings</Link>, you can export all your data
            and delete your account at any time.
          </li>
        </ul>

        <h2 id="what-we-collect">What we collect</h2>

        <h3 id="account-data">Account data</h3>
        <p>
          Your username, email address, and password when you sign up. We never store your password
          itself, only a hash made with Argon2id. If you fill in your profile, we also store your
          display name, bio, and links, which are public at <code>{'/{username}'}</code>.
        </p>

        <h3 id="app-documents">App documents</h3>
        <p>
          The apps you create or collaborate on: screens, components, collections, creator records,
          actions, theme, and edit history, along with files you upload, such as images. These are
          stored on the server so they can sync between your devices and your collaborators.
        </p>

        <h3 id="published-versions">Published versions</h3>
        <p>
          Each time you publish an app, we store an immutable snapshot of it as a new version. The
          versions you publish are shown to visitors according to the app’s visibility: private,
          unlisted, or public. Public apps also appear on your profile and in{' '}
          <Link to="/explore">Explore</Link>, and signed-in people can remix them.
        </p>

        <h3 id="sessions">Session records</h3>
        <p>
          When you sign in, we record the session along with the device or browser it came from and
          its IP address. This lets you review your active sessions in account settings, and helps
          us protect accounts, for example by limiting sign-in attempts.
        </p>

        <h3 id="messages">Messages you send us</h3>
        <p>
          When you use the <Link to="/contact">contact form</Link> or the{' '}
          <Link to="/feedback">feedback form</Link>, we receive what you write and any contact
          details you include, so that we can read it and reply.
        </p>

        <h3 id="error-reports">Error reports</h3>
        <p>
          When something breaks in your browser, Pipit sends an error report to this server’s{' '}
          <code>/monitoring</code> endpoint so we can fix the problem. Reports describe the error
          and where it happened. They never contain passwords, tokens, cookies, or anyone’s app
          data. Reports stay on this server unless the operator has set up forwarding to an error
          tracking service.
        </p>

        <h2 id="what-we-do-not-collect">What we don’t collect or see</h2>
        <ul>
          <li>
            <strong>Visitors’ app data.</strong> When you use an app as a visitor, what you enter is
            stored on your device and, if you are signed in, synced between your own devices in a
            document that belongs only to you. The server refuses every request for it except yours.
            The app’s creator, its collaborators, and other users can never see it. We store it only
            so your devices can stay in step.
          </li>
          <li>
            <strong>Advertising data.</strong> There are no ads on Pipit, and we don’t build
            advertising profiles or sell your data.
          </li>
          <li>
            <strong>Third-party trackers.</strong> Pipit loads no third-party analytics or tracking
            scripts.
          </li>
          <li>
            <strong>Third-party bot checks.</strong> The human check at sign-up is a small
            proof-of-work puzzle that your device solves. It runs on this server, uses no
            third-party service, and doesn’t track you.
          </li>
        </ul>

        <h2 id="where-data-lives">Where your data lives</h2>
        <p>Your data lives in two places:</p>
        <ul>
          <li>
            <strong>On your devices</strong>, in your browser’s IndexedDB storage. This is what lets
            Pipit and installed apps work offline. If you use an app without an account, your data
            in it exists only there.
          </li>
          <li>
            <strong>On the operator’s server</strong>, which stores accounts, app documents,
            published versions, and synced visitor data in its database. The operator decides where
            the server runs.
          </li>
        </ul>

        <h2 id="how-we-use-data">How we use your data</h2>
        <ul>
          <li>to run Pipit: store, sync, and publish your apps, and show your profile;</li>
          <li>
            to send account emails: address verification, password reset links, and email change
            confirmations;
          </li>
          <li>to keep accounts and the server safe, including rate limits and the human check;</li>
          <li>to find and fix bugs, using error reports;</li>
          <li>to answer messages you send through the contact and feedback forms.</li>
        </ul>

        <h2 id="sharing">Who else receives data</h2>
        <p>We don’t sell or rent your data. It leaves this server only in these cases:</p>
        <ul>
          <li>
            <strong>AI actions.</strong> When you run an AI action, its prompt goes to the AI
            provider the operator has configured.
          </li>
          <li>
            <strong>Email.</strong> Account emails are delivered through the mail service the
            operator has set up, which receives your email address and the message.
          </li>
          <li>
            <strong>Error forwarding.</strong> Only if the operator has configured it, error reports
            are forwarded to an error tracking service.
          </li>
          <li>
            <strong>The law.</strong> When we are legally required to disclose information.
          </li>
        </ul>

        <h2 id="ai">AI</h2>
        <p>
          AI actions are optional, and nothing is sent to an AI provider unless you run one. When
          you do, the prompt goes to the OpenAI-compatible provider the operator has configured, and
          that provider handles it under its own terms. Runs started offline are sent when you
          reconnect. Please keep other people’s personal data out of prompts, as our{' '}
          <Link to="/legal/policy">AI policy</Link> asks.
        </p>

        <h2 id="retention">How long we keep data</h2>
        <TableScroll label="How long we keep data">
          <table>
            <caption className="visually-hidden">Data retention periods</caption>
            <thead>
              <tr>
                <th scope="col">Data</th>
                <th scope="col">Kept</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">Account and profile</th>
                <td>Until you delete your account</td>
              </tr>
              <tr>
                <th scope="row">Apps and published versions</th>
                <td>Until the app is deleted. Archived apps are kept until you delete them.</td>
              </tr>
              <tr>
                <th scope="row">Error reports</th>
                <td>30 days by default</td>
              </tr>
              <tr>
                <th scope="row">Username of a deleted account</th>
                <td>Reserved for 30 days, then released for others to use</td>
              </tr>
              <tr>
                <th scope="row">Messages to us</th>
                <td>As long as needed to handle them</td>
              </tr>
            </tbody>
          </table>
        </TableScroll>
        <p>
          Data stored on your own devices stays there until you remove it, for example by
          uninstalling an app or clearing the site’s data in your browser.
        </p>

        <h2 id="your-rights">Your rights and choices</h2>
        <ul>
          <li>
            <strong>Export.</strong> Download all your data from{' '}
            <Link to="/account/settings">account settings</Link>, or export a single app as JSON.
          </li>
          <li>
            <strong>Correct.</strong> Update your profile at any time, and change your email
            address, which we confirm before switching.
          </li>
          <li>
            <strong>Review sessions.</strong> See where your account is signed in from your list of
            active sessions.
          </li>
          <li>
            <strong>Delete.</strong> Delete your account from account settings. This revokes every
            session and removes your apps.
          </li>
          <li>
            <strong>Ask.</strong> For anything else about your data, write to us through the{' '}
            <Link to="/contact">contact form</Link>.
          </li>
        </ul>

        <h2 id="cookies">Cookies and local storage</h2>
        <p>
          We use one cookie: a session cookie that keeps you signed in. It is HttpOnly, so scripts
          on the page can’t read it, and SameSite=Lax, so other sites can’t use it to act on your
          behalf. We use no advertising or tracking cookies.
        </p>
        <p>
          Pipit also stores your light or dark theme preference on your device, and keeps your apps
          and app data in your browser’s IndexedDB so they work offline. None of this is sent
          anywhere except as described above.
        </p>

        <h2 id="security">Security</h2>
        <p>
          Passwords are hashed with Argon2id, session cookies are HttpOnly and SameSite, sign-in and
          sign-up are rate-limited, and visitor data is available only to the visitor who created
          it. No system is perfectly secure, so please use a strong password that you don’t use
          anywhere else.
        </p>

        <h2 id="changes">Changes to this policy</h2>
        <p>
          We may update this policy as Pipit changes. The date at the top of this page shows when it
          last changed. If you have a question about it, ask through the{' '}
          <Link to="/contact">contact form</Link>.
        </p>
      </Prose>
    </Page>
  );
}
