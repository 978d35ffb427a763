import { describe, expect, it } from 'vitest';
import {
  contrastRatio,
  manifestColors,
  PRESET_TOKENS,
  resolveThemeTokens,
  THEME_PRESETS,
  themeSchema,
} from '../src/index';

describe('contrastRatio', () => {
  it('matches the WCAG reference values', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });
});

describe('theme presets', () => {
  it('covers every preset the schema names', () => {
    expect(Object.keys(PRESET_TOKENS).sort()).toEqual([...THEME_PRESETS].sort());
    expect(THEME_PRESETS.length).toBeGreaterThanOrEqual(8);
  });

  it.each(THEME_PRESETS.flatMap((p) => [[p, 'light'] as const, [p, 'dark'] as const]))(
    '%s (%s) keeps text and primary readable (WCAG AA; AAA for high-contrast)',
    (preset, mode) => {
      const t = PRESET_TOKENS[preset][mode];
      const min = preset === 'high-contrast' ? 7 : 4.5;
      expect(contrastRatio(t.text, t.background)).toBeGreaterThanOrEqual(min);
      expect(contrastRatio(t.text, t.surface)).toBeGreaterThanOrEqual(min);
      expect(contrastRatio(t.primary, t.background)).toBeGreaterThanOrEqual(
        preset === 'high-contrast' ? 7 : 3,
      );
    },
  );

  it('lets custom tokens override the preset one by one', () => {
    const theme = themeSchema.parse({ preset: 'harbor', custom: { primary: '#123456' } });
    const tokens = resolveThemeTokens(theme, 'light');
    expect(tokens.primary).toBe('#123456');
    expect(tokens.background).toBe(PRESET_TOKENS.harbor.light.background);
    expect(manifestColors(theme).themeColor).toBe('#123456');
  });
});
