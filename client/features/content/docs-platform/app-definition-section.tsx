import { Link } from '@tanstack/react-router';
import { TableScroll } from '../../../ui/prose';

/** The app definition: a reference of its parts and limits. */
export function AppDefinitionSection() {
  return (
    <>
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
    </>
  );
}
