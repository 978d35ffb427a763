import { Link } from '@tanstack/react-router';
import { Page } from '../../ui/page';
import { Prose } from '../../ui/prose';

export function LegalTermsPage() {
  return (
    <Page
      eyebrow="Legal"
      title="Terms of use"
      lead="The agreement between you and the operator of this Pipit server, in plain language."
      width="prose"
    >
      <Prose>
        <p>
          <strong>Last updated:</strong> <time dateTime="2026-11-21">21 November 2026</time>
        </p>

        <h2 id="about">About these terms</h2>
        <p>
          These terms are an agreement between you and the operator of this Pipit server (“the
          operator,” “we”). They apply whenever you use this server, whether you build apps,
          collaborate on them, or simply open and install them. By using Pipit, you agree to these
          terms, to the <Link to="/legal/policy">acceptable use and AI policy</Link>, and to the way
          we handle data as described in the <Link to="/legal/privacy">privacy policy</Link>.
        </p>

        <h2 id="accounts">Your account</h2>
        <ul>
          <li>
            You need an account to create apps, collaborate, remix, or sync your data across
            devices. You can open and use published apps without one.
          </li>
          <li>
            Give a real email address that you can access. We use it to verify your account, to send
            password reset links, and to confirm email changes.
          </li>
          <li>
            Keep your password to yourself and choose one you don’t use elsewhere. You are
            responsible for what happens under your account. If you think someone else has access,
            change your password and check your active sessions in{' '}
            <Link to="/account/settings">account settings</Link>.
          </li>
          <li>
            Your username is public and is part of your profile address. We may reclaim a username
            that impersonates someone or breaks our policy.
          </li>
        </ul>

        <h2 id="your-content">Your content and our license to host it</h2>
        <p>
          You own what you create on Pipit: your apps, creator records, uploads, and profile. You
          must have the right to everything you put into them.
        </p>
        <p>
          So that we can run the service, you give the operator a license to store, copy, sync, and
          display your content as needed to provide Pipit. That includes syncing your apps to your
          devices and your collaborators, showing published versions to visitors, and listing public
          apps on your profile and in <Link to="/explore">Explore</Link>. This license is free of
          charge and ends when you delete the content or your account, except where the sections
          below say otherwise.
        </p>
        <p>
          When you make an app <strong>public</strong>, you also allow any signed-in person on this
          server to remix it: to copy its published version into their own studio, where it shows
          that it was remixed from your app, and to change and publish their copy. A remix is a
          separate copy that belongs to the person who made it.
        </p>

        <h2 id="published-apps">Published apps and visitors</h2>
        <ul>
          <li>
            Visitors always get a published version of your app, never your live draft. Each
            published version is an immutable snapshot, numbered 1, 2, 3, and so on.
          </li>
          <li>
            You choose each app’s visibility. Private apps are not shared with visitors, unlisted
            apps are available to anyone with the link, and public apps also appear on your profile
            and in Explore.
          </li>
          <li>
            You can unpublish an app, or archive it. Archived apps leave your profile and Explore,
            but existing installs keep working until you delete the app, which you can do from the
            archive. Deleting an app is permanent.
          </li>
          <li>
            A visitor’s data in your app belongs to the visitor. You will never see it, and you must
            not design an app to trick visitors into handing it over.
          </li>
          <li>
            Creator records are content that every visitor can see, so do not put private
            information in them.
          </li>
        </ul>
        <p>
          If you use an app as a visitor, remember that it was made by its creator, not by the
          operator. We do not guarantee that any app is accurate, complete, or fit for your purpose.
        </p>

        <h2 id="collaborators">Collaborators</h2>
        <p>
          You can invite people to an app in one of two roles: an <strong>editor</strong> can change
          it, and a <strong>viewer</strong> can follow along without changing it. Editors’ changes
          merge with yours in real time. Invite only people you trust with your app, and remember
          that you are responsible for the app as a whole. Collaborators never see visitors’ data.
          When you collaborate on someone else’s app, that app still belongs to its owner.
        </p>

        <h2 id="ai">AI actions</h2>
        <p>
          AI actions are available only when the operator has connected an AI provider, and are
          limited by a daily quota. Their outputs may be wrong, and your prompts are sent to the
          operator’s configured provider. Follow the <Link to="/legal/policy">AI policy</Link> when
          you use them.
        </p>

        <h2 id="limits">Limits and fees</h2>
        <p>
          Pipit is free: there is one plan, with no payment and no card. Your use is subject to the
          limits on the <Link to="/pricing">pricing page</Link>, such as the number of apps,
          published apps, AI runs, collaborators, and uploads, and to rate limits that protect the
          server. The operator may change these limits.
        </p>

        <h2 id="availability">Availability</h2>
        <p>
          We work to keep this server running, but we cannot promise that it will always be
          available or free of errors. It may be down for maintenance, upgrades, or reasons we can’t
          control.
        </p>
        <p>
          Because Pipit is local-first, an outage does not stop you. The copy of your apps on your
          device, and installed apps with their data, keep working while the server is down. Changes
          you make in the meantime are kept on your device and sync once the server is back. Even
          so, we recommend exporting your apps from time to time.
        </p>

        <h2 id="termination">Ending your use</h2>
        <p>
          You can stop using Pipit at any time. You can export all your data from account settings
          and then delete your account there. Deleting your account revokes all your sessions and
          removes your apps; your username is released after 30 days.
        </p>
        <p>
          We may suspend or close an account, or remove or unpublish content, if it breaks these
          terms or the <Link to="/legal/policy">acceptable use and AI policy</Link>, or if we must
          do so by law. The policy describes the steps we usually take. Where we can, we tell you
          what we did and why, and you can reply through the <Link to="/contact">contact form</Link>
          .
        </p>

        <h2 id="disclaimers">Disclaimers</h2>
        <p>
          Pipit is provided “as is” and “as available.” To the extent the law allows, the operator
          makes no warranties, express or implied, including that the service will meet your needs,
          that it will be uninterrupted or error-free, or that apps made by users or outputs from AI
          actions are accurate.
        </p>

        <h2 id="liability">Limitation of liability</h2>
        <p>
          To the extent the law allows, the operator is not liable for indirect or consequential
          losses, or for loss of data, arising from your use of Pipit or of apps made by other
          people. Nothing in these terms limits liability that cannot be limited by law.
        </p>

        <h2 id="changes">Changes to these terms</h2>
        <p>
          We may update these terms as Pipit changes. The date at the top of this page shows when
          they last changed. If you keep using Pipit after a change, the updated terms apply. If you
          don’t agree with them, you can export your data and delete your account.
        </p>

        <h2 id="contact">Contact</h2>
        <p>
          Questions about these terms? Send them through the <Link to="/contact">contact form</Link>
          .
        </p>
      </Prose>
    </Page>
  );
}
