// Renders the platform icons in public/icons from scripts/pipit-icon.svg. Run after editing the SVG:
//   node scripts/generate-icons.mjs
// The PNGs are committed; the build does not run this.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';

const svg = readFileSync(new URL('./pipit-icon.svg', import.meta.url));
const out = (name) => new URL(`../public/icons/${name}`, import.meta.url).pathname;

// Maskable icons keep their content inside the central 80 % "safe zone": draw the mark smaller on a
// full-bleed background.
const maskable = Buffer.from(
  svg
    .toString()
    .replace(
      '<rect width="512" height="512" rx="112" fill="#1a6e4c"/>',
      '<rect width="512" height="512" fill="#1a6e4c"/><g transform="translate(76.8 76.8) scale(0.7)">',
    )
    .replace('</svg>', '</g></svg>'),
);

await sharp(svg).resize(192, 192).png().toFile(out('pipit-192.png'));
await sharp(svg).resize(512, 512).png().toFile(out('pipit-512.png'));
await sharp(maskable).resize(512, 512).png().toFile(out('pipit-maskable-512.png'));
// iOS ignores transparency and rounds corners itself: a full-bleed square.
await sharp(maskable)
  .resize(180, 180)
  .flatten({ background: '#1a6e4c' })
  .png()
  .toFile(out('apple-touch-icon.png'));
// favicon.ico holding one 32 px PNG (valid in every current browser).
const png32 = await sharp(svg).resize(32, 32).png().toBuffer();
const ico = Buffer.alloc(22);
ico.writeUInt16LE(0, 0); // reserved
ico.writeUInt16LE(1, 2); // type: icon
ico.writeUInt16LE(1, 4); // one image
ico.writeUInt8(32, 6); // width
ico.writeUInt8(32, 7); // height
ico.writeUInt16LE(1, 10); // colour planes
ico.writeUInt16LE(32, 12); // bits per pixel
ico.writeUInt32LE(png32.length, 14);
ico.writeUInt32LE(22, 18); // offset of the image data
writeFileSync(new URL('../public/favicon.ico', import.meta.url), Buffer.concat([ico, png32]));
copyFileSync(new URL('./pipit-icon.svg', import.meta.url), out('pipit.svg'));
console.log('icons written to public/icons');
