import { contrastRatio, resolveThemeTokens, type Theme } from '@pipit/app-definition';
import type { CSSProperties } from 'react';
import { faintestReadable, mixColors, readableOn } from './color';

const RADIUS_PX: Record<Theme['radius'], number> = { none: 0, small: 6, medium: 12, large: 20 };

const FONT_STACKS: Record<Theme['font'], string> = {
  system: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  serif: 'ui-serif, Georgia, Cambria, "Times New Roman", Times, serif',
  mono: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  rounded: 'ui-rounded, "SF Pro Rounded", Nunito, "Varela Round", system-ui, sans-serif',
};

const SPACING_PX: Record<Theme['density'], { gap: number; pad: number }> = {
  compact: { gap: 10, pad: 12 },
  comfortable: { gap: 16, pad: 18 },
};

/** WCAG AA for body text, with a little margin for rounding in the mix. */
const TEXT_CONTRAST = 4.6;
/** WCAG 1.4.11 for input borders and focus rings. */
const UI_CONTRAST = 3;
/** Error text: a dark red on light surfaces, a light red on dark ones (the theme has no such token). */
const DANGER_COLORS = ['#b42318', '#ff8a80'] as const;

/**
 * The theme as CSS custom properties on the screen's root. React sets them through the CSSOM, which
 * the CSP `style-src 'self'` allows (no `<style>` tags, no inline style strings). Derived colours
 * (muted text, link, borders) are computed so they keep WCAG AA on the theme's own surfaces.
 */
export function themeStyle(theme: Theme, mode: 'light' | 'dark'): CSSProperties {
  const t = resolveThemeTokens(theme, mode);
  const surfaceMuted = mixColors(t.text, t.surface, 0.06);
  const surfaces = [t.background, t.surface, surfaceMuted];
  const readsOnAll = (color: string, min: number) =>
    surfaces.every((bg) => contrastRatio(color, bg) >= min);
  const spacing = SPACING_PX[theme.density];
  const vars: Record<string, string> = {
    '--rt-primary': t.primary,
    '--rt-accent': t.accent,
    '--rt-background': t.background,
    '--rt-surface': t.surface,
    '--rt-surface-muted': surfaceMuted,
    '--rt-text': t.text,
    '--rt-muted': faintestReadable(t.text, t.surface, surfaces, TEXT_CONTRAST),
    '--rt-on-primary': readableOn(t.primary),
    '--rt-link': readsOnAll(t.primary, TEXT_CONTRAST) ? t.primary : t.text,
    '--rt-focus': readsOnAll(t.primary, UI_CONTRAST) ? t.primary : t.text,
    '--rt-danger': DANGER_COLORS.find((c) => readsOnAll(c, TEXT_CONTRAST)) ?? t.text,
    '--rt-border': mixColors(t.text, t.surface, 0.14),
    '--rt-input-border': faintestReadable(t.text, t.surface, surfaces, UI_CONTRAST),
    '--rt-chart-0': t.primary,
    '--rt-chart-1': t.accent,
    '--rt-chart-2': mixColors(t.primary, t.background, 0.55),
    '--rt-chart-3': mixColors(t.accent, t.background, 0.55),
    '--rt-chart-4': mixColors(t.text, t.background, 0.6),
    '--rt-chart-5': mixColors(t.primary, t.accent, 0.5),
    '--rt-radius': `${RADIUS_PX[theme.radius]}px`,
    '--rt-font': FONT_STACKS[theme.font],
    '--rt-gap': `${spacing.gap}px`,
    '--rt-pad': `${spacing.pad}px`,
    colorScheme: mode,
  };
  return vars as CSSProperties;
}
