export { LIMITS, SCHEMA_VERSION } from './limits';
export {
  THEME_PRESETS,
  themeSchema,
  themeTokensSchema,
  type Theme,
  type ThemePreset,
  type ThemeTokens,
} from './theme';
export { appMetaSchema, appIconSchema, type AppMeta, type AppIcon } from './meta';
