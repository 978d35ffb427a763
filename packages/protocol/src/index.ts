export { createId, isId, ID_LENGTH, ID_PATTERN } from './ids';
export {
  STATIC_ROUTES,
  DYNAMIC_ROUTES,
  matchRoute,
  type StaticRoute,
  type DynamicRoute,
  type RouteMatch,
} from './routes';
export {
  USERNAME_PATTERN,
  RESERVED_USERNAMES,
  isReservedUsername,
  usernameSchema,
} from './usernames';
export {
  ERROR_CODES,
  ERROR_STATUS,
  apiErrorSchema,
  genericErrorMessage,
  type ErrorCode,
  type ApiErrorBody,
} from './errors';
export { documentName, parseDocumentName, type DocumentName } from './documents';
export {
  STORAGE_ENGINES,
  healthResponseSchema,
  publicProfileSchema,
  profileLinkSchema,
  avatarSchema,
  sameOriginPathSchema,
  type StorageEngine,
  type HealthResponse,
  type PublicProfile,
  type Avatar,
} from './api';
