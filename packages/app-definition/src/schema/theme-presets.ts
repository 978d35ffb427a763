import type { Theme, ThemePreset, ThemeTokens } from './theme';

/** Light and dark colours for each preset. Contrast of text on background and surface is tested. */
export const PRESET_TOKENS: Record<ThemePreset, { light: ThemeTokens; dark: ThemeTokens }> = {
  meadow: {
    light: {
      primary: '#1a7f5a',
      accent: '#b4540a',
      background: '#f7faf8',
      surface: '#ffffff',
      text: '#14241d',
    },
    dark: {
      primary: '#5fd3a4',
      accent: '#ffb46b',
      background: '#0f1a15',
      surface: '#17251e',
      text: '#e6f2ec',
    },
  },
  harbor: {
    light: {
      primary: '#1f5fa8',
      accent: '#0b7a86',
      background: '#f5f8fc',
      surface: '#ffffff',
      text: '#13213a',
    },
    dark: {
      primary: '#7cb4f5',
      accent: '#5fd0da',
      background: '#0d1626',
      surface: '#152238',
      text: '#e4ecf8',
    },
  },
  ember: {
    light: {
      primary: '#b3361e',
      accent: '#8a5a00',
      background: '#fdf7f4',
      surface: '#ffffff',
      text: '#2b1510',
    },
    dark: {
      primary: '#ff8a70',
      accent: '#f0c062',
      background: '#1c0f0b',
      surface: '#291713',
      text: '#f8e8e3',
    },
  },
  orchid: {
    light: {
      primary: '#8a2f9e',
      accent: '#b0306a',
      background: '#fbf6fc',
      surface: '#ffffff',
      text: '#2a1530',
    },
    dark: {
      primary: '#d69cf0',
      accent: '#f58fbd',
      background: '#1a0f1e',
      surface: '#26182c',
      text: '#f3e7f7',
    },
  },
  slate: {
    light: {
      primary: '#3d4f66',
      accent: '#2f6f8f',
      background: '#f6f7f9',
      surface: '#ffffff',
      text: '#1a2230',
    },
    dark: {
      primary: '#a9bbd3',
      accent: '#7fc3e3',
      background: '#12161c',
      surface: '#1c222b',
      text: '#e8ecf2',
    },
  },
  citrus: {
    light: {
      primary: '#7a6000',
      accent: '#b04a00',
      background: '#fffbea',
      surface: '#ffffff',
      text: '#2a2200',
    },
    dark: {
      primary: '#f2d154',
      accent: '#ff9d5c',
      background: '#1a1600',
      surface: '#262100',
      text: '#fbf4d6',
    },
  },
  midnight: {
    light: {
      primary: '#3b3fb5',
      accent: '#8a3fb5',
      background: '#f5f5fc',
      surface: '#ffffff',
      text: '#16173a',
    },
    dark: {
      primary: '#9da1ff',
      accent: '#d4a1ff',
      background: '#0b0c1f',
      surface: '#15172e',
      text: '#e7e8fb',
    },
  },
  'high-contrast': {
    light: {
      primary: '#0000c8',
      accent: '#8a0000',
      background: '#ffffff',
      surface: '#ffffff',
      text: '#000000',
    },
    dark: {
      primary: '#ffff00',
      accent: '#00ffff',
      background: '#000000',
      surface: '#000000',
      text: '#ffffff',
    },
  },
};

/** The colours a theme resolves to in one mode: the preset's, overridden token by token. */
export function resolveThemeTokens(theme: Theme, mode: 'light' | 'dark'): ThemeTokens {
  return { ...PRESET_TOKENS[theme.preset][mode], ...theme.custom };
}

/**
 * Manifest colours follow the theme (docs/product/app-definition.md); installed apps open in the
 * light variant.
 */
export function manifestColors(theme: Theme): { themeColor: string; backgroundColor: string } {
  const mode = theme.mode === 'dark' ? 'dark' : 'light';
  const tokens = resolveThemeTokens(theme, mode);
  return { themeColor: tokens.primary, backgroundColor: tokens.background };
}
