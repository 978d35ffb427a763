import {
  AI_BINDING_MAX_LENGTH,
  AI_BINDINGS_MAX,
  AI_NOT_CONFIGURED_MESSAGE,
  AI_OUTPUT_INVALID_MESSAGE,
  AI_PROVIDER_FAILURE_MESSAGES,
  AI_RUNS_PER_MINUTE,
  type AiProviderFailure,
  groupedCount,
} from '@pipit/protocol';
import { Link } from '@tanstack/react-router';
import { TableScroll } from '../../ui/prose';
import { DocsLayout } from './docs-layout';

const SHOPPING_PROMPT = `This recipe is called "{{record.title}}" and serves {{record.servings}}.
Its ingredients are:
{{record.ingredients}}

Write a shopping list for it. Combine duplicate ingredients, group the items by
supermarket aisle, put one item per line, and leave out water, salt and pepper.
Set name to "Shopping for {{record.title}}" and servings to {{record.servings}}.`;

const SUMMARY_PROMPT = `Write a one-line summary, at most 20 words, of the book "{{record.title}}"
by {{record.author}}. Do not reveal the ending. If you do not know this book,
reply with exactly: Summary not available.`;

const CARE_PROMPT = `Give three short care tips for a {{record.species}} that lives
{{record.location}}. One sentence each, about watering, light and soil.`;

/** The caps and limits as the server words them (sync-server/src/ai/runs.ts). */
const MAX_LENGTH = groupedCount(AI_BINDING_MAX_LENGTH);
/** The free plan's runs a day (AI_DAILY_RUNS' default), as `ai_quota_exceeded` says it. */
const FREE_DAILY_RUNS = 50;

/** Why the provider failed, for each of the server's messages (sync-server/src/ai/provider.ts). */
const PROVIDER_FAILURE_WHY: Record<AiProviderFailure, string> = {
  timeout: 'The provider took longer than the server allows.',
  unreachable: 'The server could not connect to the provider.',
  busy: 'The provider said it is busy.',
  unavailable: 'The provider failed on its side.',
  settings: 'The provider refused the server’s key, or does not know its model.',
  refused: 'The provider refused the request for another reason.',
  empty: 'The provider answered with nothing.',
  malformed: 'The provider’s answer could not be read.',
  cancelled: 'The request was stopped before the answer came.',
};

/**
 * `/docs/ai-actions`: prompt templates, outputs and targets, examples, quotas and privacy. It must
 * say what the product does, word for word: caps, limits and the server's messages are rendered
 * from the constants the server uses (@pipit/protocol), the app's own messages quoted from
 * @pipit/runtime's ACTION_MESSAGES.
 */
export function DocsAiActionsPage() {
  return (
    <DocsLayout
      title="AI actions"
      lead="Let an app draft text or fill in records with AI, and decide exactly what is sent."
    >
      <h2 id="what-an-ai-action-is">What an AI action is</h2>
      <p>An AI action is a small, reusable instruction in an app. It has three parts:</p>
      <dl>
        <dt>A prompt template</dt>
        <dd>
          The instruction for the AI model. Its bindings fill in values from the app, such as{' '}
          <code>{'{{record.title}}'}</code>.
        </dd>
        <dt>An output type</dt>
        <dd>
          Plain text, or the fields of a record checked against one of the app&apos;s collections.
        </dd>
        <dt>A target</dt>
        <dd>
          Where the result goes: shown in an AI component, written into a field, or saved as a new
          record.
        </dd>
      </dl>
      <p>
        An AI action runs in one of two ways: an <strong>AI component</strong> on a screen runs it
        and shows its result, and the <strong>run AI</strong> step lets any action run it, for
        example when someone taps a button.
      </p>
      <p>
        Runs happen on the Pipit server, which sends the prompt to an AI provider that the server
        operator has connected. The provider&apos;s API key stays on the server and never reaches
        the browser.
      </p>

      <h2 id="prompt-templates">Prompt templates</h2>
      <p>
        A prompt template is ordinary text with bindings in double braces. Before a run, each
        binding is replaced with its value:
      </p>
      <TableScroll label="Prompt templates">
        <table>
          <thead>
            <tr>
              <th scope="col">Binding</th>
              <th scope="col">Replaced with</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>
                <code>{'{{record.field}}'}</code>
              </td>
              <td>
                A field of the current record, for example <code>{'{{record.title}}'}</code> on a
                recipe&apos;s screen.
              </td>
            </tr>
            <tr>
              <td>
                <code>{'{{input.field}}'}</code>
              </td>
              <td>A field of the input the action received, such as a value entered in a form.</td>
            </tr>
            <tr>
              <td>
                <code>{'{{user.name}}'}</code>
              </td>
              <td>The name of the person using the app.</td>
            </tr>
          </tbody>
        </table>
      </TableScroll>
      <p>
        The template language only substitutes values. No code runs, neither in the template nor in
        the values that fill it, so what a visitor types is always treated as text.
      </p>
      <p>
        A run sends the values of the bindings its template uses, and only those. Each value is at
        most {MAX_LENGTH} characters, and one run sends at most {AI_BINDINGS_MAX} of them. A longer
        value is refused, never cut: the app says &ldquo;A value in this AI action is too long to
        send (at most {MAX_LENGTH} characters).&rdquo; and sends nothing.
      </p>
      <p>
        The server checks again, and answers <code>validation_failed</code> for a binding the
        template does not use (&ldquo;This AI action&rsquo;s prompt does not use{' '}
        <code>{'{{…}}'}</code>, so it can&rsquo;t be sent. Send only the values its prompt
        uses.&rdquo;), a value that is too long (&ldquo;The value of <code>{'{{…}}'}</code> is too
        long: send at most {MAX_LENGTH} characters.&rdquo;) and too many bindings (&ldquo;Send at
        most {AI_BINDINGS_MAX} bindings with one run.&rdquo;). Apps only ever send the bindings
        their template uses; these answers matter when you call the API yourself.
      </p>

      <h2 id="outputs-and-targets">Outputs and targets</h2>
      <h3>Output types</h3>
      <dl>
        <dt>Plain text</dt>
        <dd>The model&apos;s answer as text, such as a summary, a list or a suggestion.</dd>
        <dt>Record fields</dt>
        <dd>
          Values for the fields of a record in a collection you choose. The result is validated
          against that collection&apos;s fields and their rules. An answer that does not fit is sent
          back to the model once with what is wrong; if the second answer does not fit either, it is
          rejected, not saved, so a malformed answer never ends up in the data.
        </dd>
      </dl>
      <h3>Targets</h3>
      <dl>
        <dt>Show in an AI component</dt>
        <dd>The result appears on the screen and is not stored in a record.</dd>
        <dt>Set a field</dt>
        <dd>
          The result is written into a field of the current record, like the set field step. Plain
          text must fit the field&apos;s rules: a number field needs a number, a date field a date,
          a choice field one of its choices, with the same one more try.
        </dd>
        <dt>Create a record</dt>
        <dd>
          The result becomes a new record in the collection you choose, like the create record step.
          With record fields, the AI returns a record of that same collection: choose the same
          collection for both, or the app cannot be published (&ldquo;The new record must be of the
          collection the AI returns. Choose the same collection for both.&rdquo;). Plain text goes
          into the new record&apos;s first text or long text field and must fit it.
        </dd>
      </dl>
      <p>
        Plain text suits showing a result or setting a single field. Record fields suit creating a
        record, because every field is checked before anything is saved.
      </p>

      <h2 id="worked-examples">Worked examples</h2>
      <h3>A recipe box that writes shopping lists</h3>
      <p>The app has two collections:</p>
      <ul>
        <li>
          <strong>Recipes</strong>
          <ul>
            <li>
              <code>title</code>: text, required
            </li>
            <li>
              <code>ingredients</code>: long text, required
            </li>
            <li>
              <code>servings</code>: number, default 2
            </li>
          </ul>
        </li>
        <li>
          <strong>Shopping lists</strong>
          <ul>
            <li>
              <code>name</code>: text, required
            </li>
            <li>
              <code>items</code>: long text, required
            </li>
            <li>
              <code>servings</code>: number
            </li>
          </ul>
        </li>
      </ul>
      <p>The AI action, named &ldquo;Shopping list&rdquo;, has this prompt template:</p>
      <pre>
        <code>{SHOPPING_PROMPT}</code>
      </pre>
      <TableScroll label="A recipe box that writes shopping lists">
        <table>
          <thead>
            <tr>
              <th scope="col">Setting</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>Output type</td>
              <td>Record fields, validated against Shopping lists</td>
            </tr>
            <tr>
              <td>Target</td>
              <td>Create a record in Shopping lists</td>
            </tr>
            <tr>
              <td>Started by</td>
              <td>
                A &ldquo;Make shopping list&rdquo; button on the recipe&apos;s screen, whose action
                has two steps: run AI &ldquo;Shopping list&rdquo;, then a toast saying
                &ldquo;Shopping list added&rdquo;.
              </td>
            </tr>
          </tbody>
        </table>
      </TableScroll>
      <p>
        Each run sends the provider the title, servings and ingredients of that one recipe, with
        Pipit&apos;s instructions and what a Shopping lists record is: the collection&apos;s name,
        its fields&apos; names and types, and a JSON schema of them. Nothing else from the app or
        its data is sent. If the answer lacks a name or its items, the server asks the model once
        more; if that answer does not fit either, no record is created and the person can try again.
        The model worked on it, so the run counts against the quota.
      </p>

      <h3>A reading list that summarizes each book</h3>
      <p>
        The app has a <strong>Books</strong> collection, and visitors add their own books:
      </p>
      <ul>
        <li>
          <code>title</code>: text, required
        </li>
        <li>
          <code>author</code>: text
        </li>
        <li>
          <code>summary</code>: text
        </li>
        <li>
          <code>finished</code>: boolean
        </li>
      </ul>
      <p>The AI action, &ldquo;Summarize&rdquo;, has this prompt template:</p>
      <pre>
        <code>{SUMMARY_PROMPT}</code>
      </pre>
      <TableScroll label="A reading list that summarizes each book">
        <table>
          <thead>
            <tr>
              <th scope="col">Setting</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>Output type</td>
              <td>Plain text</td>
            </tr>
            <tr>
              <td>Target</td>
              <td>
                Set the <code>summary</code> field of the current book
              </td>
            </tr>
            <tr>
              <td>Started by</td>
              <td>A &ldquo;Summarize&rdquo; button on the book&apos;s screen</td>
            </tr>
          </tbody>
        </table>
      </TableScroll>
      <p>
        Only the title and author are sent, with Pipit&apos;s instructions, which name the{' '}
        <code>summary</code> field and the kind of value it holds. The summary lands in the
        visitor&apos;s own copy of the record, where they can read it, correct it, or clear it like
        any other field. Setting a field needs a record the person can change, so use this pattern
        with records visitors create rather than with creator records, which are read-only to them.
      </p>

      <h3>Plant care tips shown on a screen</h3>
      <p>
        A plant journal has a <strong>Plants</strong> collection with <code>name</code>,{' '}
        <code>species</code> and <code>location</code> (for example &ldquo;on a north-facing
        windowsill&rdquo;). The plant&apos;s screen has an AI component that runs this template:
      </p>
      <pre>
        <code>{CARE_PROMPT}</code>
      </pre>
      <p>
        The output type is plain text and the target is the AI component, so the tips are shown but
        not stored. The template leaves out the plant&apos;s name, and it doesn&apos;t use{' '}
        <code>{'{{user.name}}'}</code>: neither would improve the answer, so neither is sent.
      </p>

      <h2 id="offline">Running offline</h2>
      <p>
        AI runs need the server, but apps do not. If someone asks for a run while offline, the run
        is queued on the device and happens when the device is back online, even if the app was
        closed in between. Its result then goes to its target as usual: the field of that same
        record, or a new record in the person&apos;s own data.
      </p>
      <p>
        When the <strong>run AI</strong> step of an action is queued, the action stops there. The
        app says &ldquo;You&rsquo;re offline. The AI run is queued and will run when you&rsquo;re
        back online.&rdquo; The steps before it stay done, and the steps after it do not run: not
        then, and not when the queued run finishes later. In the shopping list example, the
        &ldquo;Shopping list added&rdquo; toast is not shown; the new shopping list appears once the
        run is done. An AI component that runs offline says &ldquo;Queued: this runs when
        you&rsquo;re back online.&rdquo; and shows the result when it comes.
      </p>
      <p>
        A queued run belongs to the person who asked for it: someone else signing in on the same
        device never sees it or runs it. The app shows each run as queued, working, done or failed,
        and a failed run keeps its reason, such as a used-up quota or an answer that did not fit.
      </p>

      <h2 id="signing-in">Signing in</h2>
      <p>
        AI runs count against a person&apos;s daily quota, so they need an account. Visitors who are
        not signed in see a link to sign in where the AI action would run, and nothing is sent.
      </p>

      <h2 id="quotas">Quotas</h2>
      <p>
        Every person has a daily quota of AI runs, across all apps. On the free plan, it is{' '}
        {FREE_DAILY_RUNS} runs a day, counted per UTC day. Each run of an AI action uses one, and so
        does each <strong>Try it</strong> in the editor, each app made by describing it, and each{' '}
        <strong>Ask AI</strong> request. When the quota is used up, they fail with{' '}
        <code>ai_quota_exceeded</code> (&ldquo;You have used all {FREE_DAILY_RUNS} AI runs for
        today. More are available after midnight UTC.&rdquo;) until it resets at midnight UTC. A run
        counts once the model has been asked and worked on it, even if its answer did not fit, it
        took too long, or the person left before it came. It is given back when the model was never
        asked, or the provider refused it, was busy or could not be reached. See{' '}
        <Link to="/pricing">Pricing</Link> for the plans.
      </p>
      <p>
        On top of that, one account may ask for at most {AI_RUNS_PER_MINUTE} runs a minute, all of
        these together and failed ones included. Past that, a run fails with{' '}
        <code>rate_limited</code>: &ldquo;Too many attempts. Wait 42 seconds and try again.&rdquo;,
        with the seconds left of the minute. A queued run that meets the limit stays queued and is
        tried again later.
      </p>

      <h2 id="operator-setup">Setting up a provider</h2>
      <p>
        AI actions work only on a server whose operator has connected an AI provider. The server
        operator connects an OpenAI-compatible provider; the provider&apos;s API key is kept on the
        server and is never sent to browsers.
      </p>
      <p>
        Without a provider, both the editor and running apps say &ldquo;
        {AI_NOT_CONFIGURED_MESSAGE}&rdquo;, and runs fail with <code>ai_not_configured</code>.
        Everything else in Pipit keeps working. If you run your own server, see{' '}
        <Link to="/docs/platform">the platform guide</Link> for self-hosting.
      </p>

      <h2 id="privacy-and-safety">Privacy and safety</h2>
      <ul>
        <li>
          <strong>Only what the template binds is sent of the app&apos;s data.</strong> A run sends
          the provider Pipit&apos;s instructions and the prompt with its bindings filled in. A run
          that returns record fields also sends the collection&apos;s name, its fields&apos; names,
          types and choices, and a JSON schema of them; a plain text run stored in a field also
          sends that field&apos;s name and the kind of value it holds. Nothing else from the app or
          its data is sent: no other records and no other values. Bind only the fields the task
          needs.
        </li>
        <li>
          <strong>Keep other people&apos;s personal data out.</strong> Don&apos;t write names,
          contact details or other personal information about other people into prompts or creator
          records that feed prompts.
        </li>
        <li>
          <strong>Visitor data is sent for that run only.</strong> When a visitor runs an AI action
          that binds their own data, those values go to the provider for that run alone. Tell your
          visitors what an AI feature sends, for example in the button&apos;s label or a line of
          text beside it.
        </li>
        <li>
          <strong>Outputs can be wrong.</strong> AI models make mistakes and can state them
          confidently. Review what an AI action produces before relying on it, and design apps so
          that people can check and edit results.
        </li>
        <li>
          <strong>No code runs.</strong> Templates only substitute values, so neither a prompt nor a
          model&apos;s answer can run code in the app.
        </li>
      </ul>
      <p>
        For how Pipit handles data in general, read the{' '}
        <Link to="/legal/privacy">privacy policy</Link>.
      </p>

      <h2 id="errors">Errors</h2>
      <TableScroll label="Errors">
        <table>
          <thead>
            <tr>
              <th scope="col">What you see</th>
              <th scope="col">Why</th>
              <th scope="col">What to do</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>
                <code>ai_not_configured</code>: &ldquo;{AI_NOT_CONFIGURED_MESSAGE}&rdquo;
              </td>
              <td>The server has no AI provider connected.</td>
              <td>Ask the server&apos;s operator to connect one.</td>
            </tr>
            <tr>
              <td>
                <code>ai_quota_exceeded</code>: &ldquo;You have used all {FREE_DAILY_RUNS} AI runs
                for today. More are available after midnight UTC.&rdquo;
              </td>
              <td>You have used all of today&apos;s runs.</td>
              <td>
                Wait for the daily reset, or see <Link to="/pricing">Pricing</Link>.
              </td>
            </tr>
            <tr>
              <td>
                <code>rate_limited</code>: &ldquo;Too many attempts. Wait 42 seconds and try
                again.&rdquo;
              </td>
              <td>More than {AI_RUNS_PER_MINUTE} AI requests from your account in one minute.</td>
              <td>Wait the seconds it says, then run it again.</td>
            </tr>
            <tr>
              <td>
                <code>validation_failed</code>
              </td>
              <td>
                A binding the template does not use, a value over {MAX_LENGTH} characters or more
                than {AI_BINDINGS_MAX} bindings (see{' '}
                <a href="#prompt-templates">Prompt templates</a>); or the AI action is not finished:
                &ldquo;This AI action has no prompt yet. Write one in the editor.&rdquo; or
                &ldquo;This AI action has no collection to fill. Choose one in the editor.&rdquo;
              </td>
              <td>Finish the AI action in the editor, or send only the values its prompt uses.</td>
            </tr>
            <tr>
              <td>
                <code>ai_output_invalid</code>: &ldquo;{AI_OUTPUT_INVALID_MESSAGE}&rdquo;
              </td>
              <td>
                The answer did not fit the collection&apos;s fields or the field it goes to, even
                after the server asked the model once more, so nothing was saved.
              </td>
              <td>Run it again, or make the prompt say more clearly what each field needs.</td>
            </tr>
            <tr>
              <td>
                <code>ai_provider_failed</code>: one of the messages below
              </td>
              <td>
                The AI provider did not answer in time, or answered with an error. Nothing was
                saved.
              </td>
              <td>Do what the message says.</td>
            </tr>
            <tr>
              <td>
                <code>unauthenticated</code>: &ldquo;Sign in to use AI in this app&rdquo;
              </td>
              <td>AI runs need an account.</td>
              <td>Sign in, then run it again.</td>
            </tr>
            <tr>
              <td>
                <code>internal</code>, with a digest
              </td>
              <td>Something failed on the server.</td>
              <td>
                Try again later. If it keeps happening, quote the digest when you{' '}
                <Link to="/contact">contact us</Link>.
              </td>
            </tr>
          </tbody>
        </table>
      </TableScroll>
      <p>
        <code>ai_provider_failed</code> says what went wrong with the provider:
      </p>
      <TableScroll label="AI provider failures">
        <table>
          <thead>
            <tr>
              <th scope="col">What you see</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {(Object.keys(PROVIDER_FAILURE_WHY) as AiProviderFailure[]).map((kind) => (
              <tr key={kind}>
                <td>&ldquo;{AI_PROVIDER_FAILURE_MESSAGES[kind]}&rdquo;</td>
                <td>{PROVIDER_FAILURE_WHY[kind]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </DocsLayout>
  );
}
