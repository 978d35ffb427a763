/*
 * WCAG 2.x relative luminance and contrast ratio of two `#rrggbb` colours: defined in
 * @pipit/protocol, beside the icon's letter colour that uses them (emoji-image.ts).
 */
export { contrastRatio, relativeLuminance } from '@pipit/protocol';
