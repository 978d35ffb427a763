import { contrastRatio } from '@pipit/app-definition';

const HEX_COLOR = /^#[0-9a-f]{6}$/i;

export function isHexColor(value: string): boolean {
  return HEX_COLOR.test(value);
}

function channels(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

/** `weight` of `a` mixed with the rest of `b`, as `#rrggbb`. */
export function mixColors(a: string, b: string, weight: number): string {
  const ca = channels(a);
  const cb = channels(b);
  return `#${ca
    .map((c, i) => Math.round(c * weight + (cb[i] ?? 0) * (1 - weight)))
    .map((c) => c.toString(16).padStart(2, '0'))
    .join('')}`;
}

/** Black or white, whichever reads better on `background`. */
export function readableOn(background: string): string {
  return contrastRatio('#000000', background) >= contrastRatio('#ffffff', background)
    ? '#000000'
    : '#ffffff';
}

/**
 * The faintest mix of `color` into `base` that still reaches `minRatio` against every one of
 * `backgrounds`; `color` itself when no mix does (a custom theme may not reach it at all).
 */
export function faintestReadable(
  color: string,
  base: string,
  backgrounds: string[],
  minRatio: number,
): string {
  for (let weight = 0.5; weight < 1; weight += 0.05) {
    const mixed = mixColors(color, base, weight);
    if (backgrounds.every((bg) => contrastRatio(mixed, bg) >= minRatio)) return mixed;
  }
  return color;
}
