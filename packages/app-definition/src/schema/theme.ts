import { z } from 'zod';

/**
 * Named presets (docs/product/app-definition.md: at least eight, one of them high-contrast).
 * Colours live in the runtime.
 */
export const THEME_PRESETS = [
  'meadow',
  'harbor',
  'ember',
  'orchid',
  'slate',
  'citrus',
  'midnight',
  'high-contrast',
] as const;
export type ThemePreset = (typeof THEME_PRESETS)[number];

const hexColor = z.string().regex(/^#[0-9a-f]{6}$/i, 'Use a colour like #1a7f5a.');

export const themeTokensSchema = z.object({
  primary: hexColor,
  accent: hexColor,
  background: hexColor,
  surface: hexColor,
  text: hexColor,
});
export type ThemeTokens = z.infer<typeof themeTokensSchema>;

export const themeSchema = z.object({
  preset: z.enum(THEME_PRESETS).default('meadow'),
  /** Custom colours override the preset's, token by token. */
  custom: themeTokensSchema.partial().default({}),
  radius: z.enum(['none', 'small', 'medium', 'large']).default('medium'),
  font: z.enum(['system', 'serif', 'mono', 'rounded']).default('system'),
  density: z.enum(['compact', 'comfortable']).default('comfortable'),
  mode: z.enum(['light', 'dark', 'auto']).default('auto'),
});
export type Theme = z.infer<typeof themeSchema>;
