export { contrastRatio, relativeLuminance } from './contrast';
export { PRESET_TOKENS, resolveThemeTokens, manifestColors } from './presets';
