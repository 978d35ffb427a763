import {
  PRESET_TOKENS,
  resolveThemeTokens,
  setTheme,
  type Theme,
  THEME_PRESETS,
  type ThemeTokens,
  themeSchema,
} from '@pipit/app-definition';
import { Button } from '../../../ui/button';
import { SelectField } from '../../../ui/field';
import { useEditor } from '../common/editor-context';

const PRESET_NAMES: Record<Theme['preset'], string> = {
  meadow: 'Meadow',
  harbor: 'Harbor',
  ember: 'Ember',
  orchid: 'Orchid',
  slate: 'Slate',
  citrus: 'Citrus',
  midnight: 'Midnight',
  'high-contrast': 'High contrast',
};

const TOKENS: Array<{ key: keyof ThemeTokens; label: string }> = [
  { key: 'primary', label: 'Primary' },
  { key: 'accent', label: 'Accent' },
  { key: 'background', label: 'Background' },
  { key: 'surface', label: 'Surface' },
  { key: 'text', label: 'Text' },
];

const CHOICES = {
  radius: [
    ['none', 'Square'],
    ['small', 'Small'],
    ['medium', 'Medium'],
    ['large', 'Large'],
  ],
  font: [
    ['system', 'System'],
    ['serif', 'Serif'],
    ['mono', 'Monospace'],
    ['rounded', 'Rounded'],
  ],
  density: [
    ['comfortable', 'Comfortable'],
    ['compact', 'Compact'],
  ],
  mode: [
    ['auto', 'Follow the device'],
    ['light', 'Always light'],
    ['dark', 'Always dark'],
  ],
} as const satisfies Record<string, ReadonlyArray<readonly [string, string]>>;

const CHOICE_LABELS: Record<keyof typeof CHOICES, string> = {
  radius: 'Corner radius',
  font: 'Font',
  density: 'Density',
  mode: 'Light or dark',
};

/** The theme: a preset, custom colours over it, radius, font, density and mode. */
export function ThemePanel() {
  const { definition, handle, readOnly } = useEditor();
  const theme = definition.theme;
  const update = (patch: Partial<Theme>) => handle.edit(setTheme, patch);
  return (
    <div className="properties-panel">
      <h2 className="editor-section__title">Theme</h2>
      <fieldset className="preset-picker">
        <legend className="field__label">Preset</legend>
        <p className="field__hint">
          Choosing a preset replaces custom colours (Undo brings them back).
        </p>
        <div className="preset-picker__grid">
          {THEME_PRESETS.map((preset) => {
            const light = PRESET_TOKENS[preset].light;
            const dark = PRESET_TOKENS[preset].dark;
            return (
              <label key={preset} className="preset-option">
                <input
                  type="radio"
                  name="theme-preset"
                  value={preset}
                  checked={theme.preset === preset}
                  disabled={readOnly}
                  onChange={() => update({ preset, custom: {} })}
                />
                <span className="preset-option__swatches" aria-hidden="true">
                  {[
                    light.primary,
                    light.accent,
                    light.background,
                    dark.primary,
                    dark.background,
                  ].map((color, i) => (
                    <span key={i} className="preset-option__swatch" style={{ background: color }} />
                  ))}
                </span>
                <span className="preset-option__name">{PRESET_NAMES[preset]}</span>
              </label>
            );
          })}
        </div>
      </fieldset>
      <CustomColours />
      {(Object.keys(CHOICES) as Array<keyof typeof CHOICES>).map((key) => (
        <SelectField
          key={key}
          label={CHOICE_LABELS[key]}
          value={theme[key]}
          disabled={readOnly}
          onChange={(e) => {
            const parsed = themeSchema.shape[key].safeParse(e.target.value);
            if (parsed.success) update({ [key]: parsed.data });
          }}
        >
          {CHOICES[key].map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
      ))}
    </div>
  );
}

function CustomColours() {
  const { definition, handle, readOnly } = useEditor();
  const theme = definition.theme;
  const resolved = resolveThemeTokens(theme, theme.mode === 'dark' ? 'dark' : 'light');
  const setCustom = (custom: Partial<ThemeTokens>) => handle.edit(setTheme, { custom });
  const hasCustom = Object.keys(theme.custom).length > 0;
  return (
    <fieldset className="prop-group">
      <legend className="field__label">Custom colours</legend>
      <p className="field__hint">
        Each colour overrides the preset’s{theme.mode === 'auto' ? ' in light and dark' : ''}.
      </p>
      <div className="colour-grid">
        {TOKENS.map(({ key, label }) => {
          const custom = theme.custom[key];
          const id = `theme-colour-${key}`;
          return (
            <div key={key} className="colour-input">
              <input
                id={id}
                type="color"
                value={custom ?? resolved[key]}
                disabled={readOnly}
                onChange={(e) => {
                  if (/^#[0-9a-f]{6}$/i.test(e.target.value)) {
                    setCustom({ ...theme.custom, [key]: e.target.value });
                  }
                }}
              />
              <label htmlFor={id}>
                {label}
                <span className="editor-muted">{custom ? ' (custom)' : ''}</span>
              </label>
            </div>
          );
        })}
      </div>
      {hasCustom && !readOnly ? (
        <Button size="small" variant="secondary" onClick={() => setCustom({})}>
          Use the preset’s colours
        </Button>
      ) : null}
    </fieldset>
  );
}
