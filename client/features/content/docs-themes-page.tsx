import { Link } from '@tanstack/react-router';
import { TableScroll } from '../../ui/prose';
import { DocsLayout } from './docs-layout';

const PRESETS = [
  {
    name: 'meadow',
    colors: 'Green. The default.',
    light: '#1a7f5a',
    dark: '#5fd3a4',
  },
  { name: 'harbor', colors: 'Blue.', light: '#1f5fa8', dark: '#7cb4f5' },
  { name: 'ember', colors: 'Red-orange.', light: '#b3361e', dark: '#ff8a70' },
  { name: 'orchid', colors: 'Purple.', light: '#8a2f9e', dark: '#d69cf0' },
  { name: 'slate', colors: 'Gray-blue.', light: '#3d4f66', dark: '#a9bbd3' },
  { name: 'citrus', colors: 'Yellow-olive.', light: '#7a6000', dark: '#f2d154' },
  { name: 'midnight', colors: 'Indigo.', light: '#3b3fb5', dark: '#9da1ff' },
  {
    name: 'high-contrast',
    colors:
      'Black and white, with vivid blue (light) and yellow (dark) accents. Meets WCAG AAA (7:1).',
    light: '#0000c8',
    dark: '#ffff00',
  },
] as const;

const THEME_EXAMPLE = `{
  "preset": "harbor",
  "custom": { "accent": "#0b7a86" },
  "radius": "large",
  "font": "rounded",
  "density": "comfortable",
  "mode": "auto"
}`;

/** `/docs/themes`: presets, custom colors, the other theme settings and accessibility advice. */
export function DocsThemesPage() {
  return (
    <DocsLayout
      title="Themes"
      lead="Start from a preset, adjust colors, and choose corners, font, density and mode."
    >
      <p>
        Every app has a theme, which you set in the editor. A theme is a preset plus a few settings,
        and it is part of the app definition, so it syncs, publishes and remixes along with
        everything else. In the definition, a theme looks like this:
      </p>
      <pre>
        <code>{THEME_EXAMPLE}</code>
      </pre>

      <h2 id="presets">Presets</h2>
      <p>
        Pipit has eight presets. Each has a light and a dark variant, and each keeps text at WCAG AA
        contrast (4.5:1) or better on both the background and the surface colors.
      </p>
      <TableScroll label="Presets">
        <table>
          <thead>
            <tr>
              <th scope="col">Preset</th>
              <th scope="col">Colors</th>
              <th scope="col">Primary, light</th>
              <th scope="col">Primary, dark</th>
            </tr>
          </thead>
          <tbody>
            {PRESETS.map((preset) => (
              <tr key={preset.name}>
                <td>
                  <code>{preset.name}</code>
                </td>
                <td>{preset.colors}</td>
                <td>
                  <code>{preset.light}</code>
                </td>
                <td>
                  <code>{preset.dark}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>

      <h2 id="custom-colors">Custom colors</h2>
      <p>
        To change a color, set a custom token. Each token overrides the preset&apos;s color of the
        same name, one by one, and the rest of the preset stays as it is. Colors are six-digit hex
        values, such as <code>#1a7f5a</code>.
      </p>
      <TableScroll label="Custom colors">
        <table>
          <thead>
            <tr>
              <th scope="col">Token</th>
              <th scope="col">What it colors</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>
                <code>primary</code>
              </td>
              <td>
                The main color: buttons, links and highlights. It is also the installed app&apos;s
                theme color.
              </td>
            </tr>
            <tr>
              <td>
                <code>accent</code>
              </td>
              <td>A second color for details that should stand apart from the primary.</td>
            </tr>
            <tr>
              <td>
                <code>background</code>
              </td>
              <td>The color behind everything on a screen.</td>
            </tr>
            <tr>
              <td>
                <code>surface</code>
              </td>
              <td>Cards and panels that sit on the background.</td>
            </tr>
            <tr>
              <td>
                <code>text</code>
              </td>
              <td>The text on the background and on surfaces.</td>
            </tr>
          </tbody>
        </table>
      </TableScroll>
      <p>
        A custom color is used in both the light and the dark variant. A background that looks right
        in light mode can leave too little contrast with the dark variant&apos;s text, so check
        both, or set the mode to <code>light</code> or <code>dark</code> to use only one.
      </p>

      <h2 id="other-settings">Other settings</h2>
      <TableScroll label="Other settings">
        <table>
          <thead>
            <tr>
              <th scope="col">Setting</th>
              <th scope="col">Values</th>
              <th scope="col">Default</th>
              <th scope="col">What it changes</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>
                <code>radius</code>
              </td>
              <td>
                <code>none</code>, <code>small</code>, <code>medium</code>, <code>large</code>
              </td>
              <td>
                <code>medium</code>
              </td>
              <td>How rounded corners are, from square to generously rounded.</td>
            </tr>
            <tr>
              <td>
                <code>font</code>
              </td>
              <td>
                <code>system</code>, <code>serif</code>, <code>mono</code>, <code>rounded</code>
              </td>
              <td>
                <code>system</code>
              </td>
              <td>
                The typeface. <code>system</code> uses the device&apos;s own font, which people
                already know.
              </td>
            </tr>
            <tr>
              <td>
                <code>density</code>
              </td>
              <td>
                <code>compact</code>, <code>comfortable</code>
              </td>
              <td>
                <code>comfortable</code>
              </td>
              <td>
                How much space there is between things. <code>compact</code> fits more on a screen.
              </td>
            </tr>
            <tr>
              <td>
                <code>mode</code>
              </td>
              <td>
                <code>light</code>, <code>dark</code>, <code>auto</code>
              </td>
              <td>
                <code>auto</code>
              </td>
              <td>
                Which variant of the preset to show. <code>auto</code> follows the device&apos;s
                light or dark setting.
              </td>
            </tr>
          </tbody>
        </table>
      </TableScroll>

      <h2 id="installed-app-colors">Colors of the installed app</h2>
      <p>When someone installs an app, its web app manifest takes its colors from the theme:</p>
      <ul>
        <li>
          <code>theme_color</code> is the resolved primary color, after any custom{' '}
          <code>primary</code> is applied.
        </li>
        <li>
          <code>background_color</code> is the resolved background color.
        </li>
      </ul>
      <p>
        Both come from the light variant, unless the mode is <code>dark</code>, in which case they
        come from the dark variant. See <Link to="/docs/platform">the platform guide</Link> for the
        rest of the manifest.
      </p>

      <h2 id="accessibility">Accessibility</h2>
      <ul>
        <li>
          <strong>Check contrast when you choose custom colors.</strong> Text should reach at least
          4.5:1 against the background and the surface. The editor warns you when a choice falls
          below that, and the presets already meet it.
        </li>
        <li>
          <strong>
            Prefer <code>auto</code> mode.
          </strong>{' '}
          People choose light or dark for a reason, such as glare, night-time use or light
          sensitivity. <code>auto</code> respects that choice.
        </li>
        <li>
          <strong>
            Use <code>high-contrast</code> for accessibility-first apps.
          </strong>{' '}
          It meets WCAG AAA (7:1) and suits people with low vision, or apps used outdoors in bright
          light.
        </li>
        <li>
          <strong>Don&apos;t rely on color alone.</strong> Say what a color means in words too, for
          example in a field&apos;s label or a list&apos;s subtitle.
        </li>
      </ul>
    </DocsLayout>
  );
}
