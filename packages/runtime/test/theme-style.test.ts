import { THEME_PRESETS, themeSchema } from '@pipit/app-definition';
import { describe, expect, it } from 'vitest';
import { contrastRatio } from '@pipit/app-definition';
import { themeStyle } from '../src/index';

const vars = (style: object) => style as Record<string, string>;

describe('themeStyle', () => {
  it.each(THEME_PRESETS.flatMap((p) => [[p, 'light'] as const, [p, 'dark'] as const]))(
    '%s (%s): muted text, links, error text and button text reach WCAG AA',
    (preset, mode) => {
      const s = vars(themeStyle(themeSchema.parse({ preset }), mode));
      for (const bg of ['--rt-background', '--rt-surface', '--rt-surface-muted']) {
        expect(contrastRatio(s['--rt-muted']!, s[bg]!)).toBeGreaterThanOrEqual(4.5);
        expect(contrastRatio(s['--rt-link']!, s[bg]!)).toBeGreaterThanOrEqual(4.5);
        expect(contrastRatio(s['--rt-input-border']!, s[bg]!)).toBeGreaterThanOrEqual(3);
        expect(contrastRatio(s['--rt-danger']!, s[bg]!)).toBeGreaterThanOrEqual(4.5);
      }
      expect(contrastRatio(s['--rt-on-primary']!, s['--rt-primary']!)).toBeGreaterThanOrEqual(4.5);
      // Muted is actually fainter than the text, not just the text again.
      expect(s['--rt-muted']).not.toBe(s['--rt-text']);
    },
  );

  it('falls back to the text colour for links when a custom primary is unreadable', () => {
    const theme = themeSchema.parse({ custom: { primary: '#f7faf8' } });
    const s = vars(themeStyle(theme, 'light'));
    expect(s['--rt-primary']).toBe('#f7faf8');
    expect(s['--rt-link']).toBe(s['--rt-text']);
  });

  it('maps font, radius and density', () => {
    const s = vars(
      themeStyle(themeSchema.parse({ font: 'mono', radius: 'none', density: 'compact' }), 'light'),
    );
    expect(s['--rt-font']).toMatch(/monospace$/);
    expect(s['--rt-radius']).toBe('0px');
    expect(s['--rt-gap']).toBe('10px');
  });
});
