/** libvips is loaded on the first picture: a server that makes none keeps it out of memory. */
const loadSharp = async () => (await import('sharp')).default;

/**
 * Draws an app's icon as PNG, in the shapes an installed app needs (docs/library-notes.md#pwa):
 * `any` icons as a rounded square; a maskable icon full-bleed with the picture inside the central
 * 80 % circle that every mask keeps; iOS's apple-touch-icon opaque and full-bleed (iOS rounds it
 * itself).
 */

export const APP_ICON_VARIANTS = {
  '192': { size: 192, shape: 'rounded' },
  '512': { size: 512, shape: 'rounded' },
  'maskable-512': { size: 512, shape: 'maskable' },
  'apple-touch-180': { size: 180, shape: 'opaque' },
} as const satisfies Record<string, { size: number; shape: 'rounded' | 'maskable' | 'opaque' }>;
export type AppIconVariant = keyof typeof APP_ICON_VARIANTS;

export function isAppIconVariant(name: string): name is AppIconVariant {
  return Object.hasOwn(APP_ICON_VARIANTS, name);
}

/** What to draw: a Twemoji picture, a letter (no picture matched), or an uploaded image. */
export type IconArt =
  | { kind: 'svg'; svg: string; background: string }
  | { kind: 'letter'; letter: string; background: string; color: string }
  | { kind: 'image'; bytes: Uint8Array; background: string };

/** Corner radius of the rounded square, as a share of the side (close to the platforms' own). */
const CORNER_RATIO = 0.225;
/**
 * The picture's side, as a share of the icon's. In a maskable icon a square of side s fits the
 * safe circle (diameter 0.8) while s·√2 ≤ 0.8, so s ≤ 0.565: 0.5 leaves a margin.
 */
const GLYPH_RATIO = { rounded: 0.62, maskable: 0.5, opaque: 0.62 } as const;
/** Uploaded images are re-encoded on upload; this only bounds a hostile or broken file. */
const MAX_INPUT_PIXELS = 40_000_000;

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

function backdrop(size: number, shape: 'rounded' | 'maskable' | 'opaque', fill: string): string {
  const radius = shape === 'rounded' ? Math.round(size * CORNER_RATIO) : 0;
  return `<rect width="${size}" height="${size}" rx="${radius}" ry="${radius}" fill="${fill}"/>`;
}

/** A Twemoji file as a nested <svg> placed at (x, y) with the given side. */
function nestedPicture(svg: string, x: number, side: number): string {
  const open = /^\s*(?:<\?xml[^>]*>\s*)?<svg\b([^>]*)>/i.exec(svg);
  const close = svg.lastIndexOf('</svg>');
  if (!open || close < 0) throw new Error('Not an SVG document.');
  const viewBox = /\sviewBox\s*=\s*"([^"]+)"/i.exec(open[1] ?? '')?.[1] ?? '0 0 36 36';
  const inner = svg.slice(open.index + open[0].length, close);
  return `<svg x="${x}" y="${x}" width="${side}" height="${side}" viewBox="${escapeXml(viewBox)}">${inner}</svg>`;
}

function svgDocument(size: number, body: string): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">${body}</svg>`,
  );
}

/** Renders one icon variant as PNG bytes. */
export async function renderAppIcon(art: IconArt, variant: AppIconVariant): Promise<Buffer> {
  const { size, shape } = APP_ICON_VARIANTS[variant];
  const sharp = await loadSharp();
  if (art.kind === 'image') {
    const picture = sharp(art.bytes, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize(size, size, { fit: 'cover', position: 'centre' });
    if (shape === 'rounded') {
      // The rounded square keeps the image's own transparency; only the corners are cut away.
      const mask = svgDocument(size, backdrop(size, shape, '#000'));
      return picture
        .ensureAlpha()
        .composite([{ input: mask, blend: 'dest-in' }])
        .png()
        .toBuffer();
    }
    return picture.flatten({ background: art.background }).png().toBuffer();
  }

  const side = Math.round(size * GLYPH_RATIO[shape]);
  const offset = Math.round((size - side) / 2);
  const glyph =
    art.kind === 'svg'
      ? nestedPicture(art.svg, offset, side)
      : // Letters and digits only (never an emoji): any sans-serif face draws them.
        `<text x="${size / 2}" y="${Math.round(size / 2 + side * 0.27)}" text-anchor="middle" ` +
        `font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-weight="700" ` +
        `font-size="${Math.round(side * 0.78)}" fill="${art.color}">${escapeXml(art.letter)}</text>`;
  const document = svgDocument(size, backdrop(size, shape, art.background) + glyph);
  return sharp(document, { density: 72 }).png().toBuffer();
}
