import { Link } from '@tanstack/react-router';
import { ButtonLink } from '../../ui/button-link';
import { Card } from '../../ui/card';
import { Page, Section } from '../../ui/page';
import { Prose, TableScroll } from '../../ui/prose';

export function PricingPage() {
  return (
    <Page
      eyebrow="Pricing"
      title="One plan, and it’s free"
      lead="Everything Pipit does, with generous limits. No payment, no card, no trial to run out."
      width="content"
    >
      <Section title="The Free plan" id="free-plan">
        <div className="grid">
          <Card
            title="Free"
            icon="🐦"
            footer={
              <ButtonLink to="/signup" variant="primary">
                Create an account
              </ButtonLink>
            }
          >
            <p>Everything you need to build, publish, and share small apps.</p>
            <ul>
              <li>25 apps</li>
              <li>10 published apps</li>
              <li>50 AI runs a day</li>
              <li>5 collaborators per app</li>
              <li>20 MB of uploads</li>
            </ul>
          </Card>
          <Card title="Included for everyone" icon="✅">
            <ul>
              <li>A visual editor that works fully offline, on any device</li>
              <li>Real-time collaboration with editors and viewers</li>
              <li>Installable apps that visitors can use offline</li>
              <li>Private, per-visitor data that creators never see</li>
              <li>Version history, remixing, and JSON export</li>
            </ul>
          </Card>
          <Card title="No payment, no card" icon="💳">
            <p>
              Pipit has a single plan and it costs nothing. You will never be asked for a card, and
              nothing is charged when you reach a limit.
            </p>
          </Card>
        </div>
      </Section>

      <Section title="Account limits" id="account-limits">
        <Prose>
          <TableScroll label="Account limits">
            <table>
              <caption className="visually-hidden">Free plan account limits</caption>
              <thead>
                <tr>
                  <th scope="col">What</th>
                  <th scope="col">Free plan</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <th scope="row">Apps</th>
                  <td>25</td>
                </tr>
                <tr>
                  <th scope="row">Published apps</th>
                  <td>10</td>
                </tr>
                <tr>
                  <th scope="row">AI runs</th>
                  <td>50 a day</td>
                </tr>
                <tr>
                  <th scope="row">Collaborators</th>
                  <td>5 per app</td>
                </tr>
                <tr>
                  <th scope="row">Uploads</th>
                  <td>20 MB</td>
                </tr>
              </tbody>
            </table>
          </TableScroll>
          <p>
            AI actions need the server’s operator to have connected an AI provider. Learn more in
            the <Link to="/docs/ai-actions">AI actions guide</Link>.
          </p>
        </Prose>
      </Section>

      <Section title="App limits" id="app-limits">
        <Prose>
          <p>Each app can grow to the following size:</p>
          <TableScroll label="App limits">
            <table>
              <caption className="visually-hidden">Limits for each app</caption>
              <thead>
                <tr>
                  <th scope="col">What</th>
                  <th scope="col">Limit per app</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <th scope="row">Screens</th>
                  <td>50</td>
                </tr>
                <tr>
                  <th scope="row">Components</th>
                  <td>200 per screen</td>
                </tr>
                <tr>
                  <th scope="row">Collections</th>
                  <td>20</td>
                </tr>
                <tr>
                  <th scope="row">Fields</th>
                  <td>50 per collection</td>
                </tr>
                <tr>
                  <th scope="row">Creator records</th>
                  <td>2,000</td>
                </tr>
                <tr>
                  <th scope="row">App document size</th>
                  <td>5 MB</td>
                </tr>
              </tbody>
            </table>
          </TableScroll>
          <p>
            Creator records are the content you add to an app for every visitor to see. The data
            visitors enter is their own, kept on their devices and in their own synced documents,
            and is not part of your app.
          </p>
        </Prose>
      </Section>

      <Section title="Rate limits" id="rate-limits">
        <Prose>
          <p>
            These limits keep accounts safe from password guessing and the server safe from spam.
          </p>
          <TableScroll label="Rate limits">
            <table>
              <caption className="visually-hidden">Rate limits</caption>
              <thead>
                <tr>
                  <th scope="col">Action</th>
                  <th scope="col">Limit</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <th scope="row">Sign-in attempts</th>
                  <td>
                    10 per minute per IP address, and 10 wrong passwords per minute for an account
                    from one address: someone guessing elsewhere never locks you out
                  </td>
                </tr>
                <tr>
                  <th scope="row">Sign-ups</th>
                  <td>5 per hour, per IP address</td>
                </tr>
                <tr>
                  <th scope="row">Password reset emails</th>
                  <td>3 per hour, per email address</td>
                </tr>
              </tbody>
            </table>
          </TableScroll>
        </Prose>
      </Section>

      <Section title="Accounts and profiles" id="account-rules">
        <Prose>
          <dl>
            <dt>Username</dt>
            <dd>
              3 to 30 characters using a–z, 0–9, underscores, and hyphens, starting with a letter.
              Names of site pages are reserved.
            </dd>
            <dt>Password</dt>
            <dd>
              10 to 128 characters. It cannot be a common password or the same as your username or
              email address.
            </dd>
            <dt>Profile</dt>
            <dd>
              A display name of up to 60 characters, a bio of up to 280 characters, and up to 5
              links (http or https).
            </dd>
          </dl>
        </Prose>
      </Section>

      <Section title="Running your own server" id="self-hosted">
        <Prose>
          <p>
            The numbers on this page are Pipit’s defaults. Pipit is self-hostable: if you run your
            own server, you are its operator, and you can change every limit on this page to suit
            the people who use it. On a server run by someone else, the limits are whatever its
            operator has set. See the <Link to="/docs/platform">platform guide</Link> to get
            started.
          </p>
          <p>
            Questions about limits? Read the <Link to="/faq">FAQ</Link> or send a message through
            the <Link to="/contact">contact form</Link>.
          </p>
        </Prose>
      </Section>
    </Page>
  );
}
