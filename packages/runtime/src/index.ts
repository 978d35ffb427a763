export { AppScreen, type AppScreenProps } from './app-screen';
export { type PresenceMark } from './component-frame';
export { SafeMarkdown } from './safe-markdown';
export { safeHref } from './safe-url';
export { themeStyle } from './theme-style';
export {
  aggregateRecords,
  queryRecords,
  type Aggregate,
  type ListFilter,
  type ListSort,
} from './records';
