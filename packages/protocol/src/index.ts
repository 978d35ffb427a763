export { createId, isId, ID_LENGTH, ID_PATTERN } from './ids';
export {
  BUSY_RETRY_MAX_MS,
  busyRetryDelay,
  reconnectDelay,
  socketRetryDelay,
  SYNC_SOCKET_RETRY,
} from './sync-retry';
export {
  STATIC_ROUTES,
  DYNAMIC_ROUTES,
  PRERENDERED_ROUTES,
  SERVER_RENDERED_ROUTES,
  prerenderedFile,
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
  CLIENT_ONLY_ERROR_CODES,
  ERROR_CODES,
  ERROR_STATUS,
  genericErrorMessage,
  type ErrorCode,
} from './error-codes';
export { apiErrorSchema, type ApiErrorBody } from './errors';
export { ERROR_MEANINGS } from './error-meanings';
export {
  documentName,
  parseDocumentName,
  SYNC_PATH,
  SYNC_PROVIDER_ADDRESSING,
  type DocumentName,
  type RecordsDocument,
} from './documents';
export {
  SYNC_CLOSE_REASONS,
  isSyncCloseReason,
  type SyncCloseReason,
  type SyncRefusalReason,
  type UpdateRefusalReason,
} from './sync-refusals';
export {
  STORAGE_ENGINES,
  healthResponseSchema,
  readyResponseSchema,
  notReadyResponseSchema,
  NOT_READY_REASONS,
  type StorageEngine,
  type HealthResponse,
  type ReadyResponse,
  type NotReadyResponse,
  type NotReadyReason,
} from './api';
export {
  profileLinkSchema,
  avatarSchema,
  sameOriginPathSchema,
  type Avatar,
} from './profile-parts';
export { publicProfileSchema, type PublicProfile } from './profiles';
export {
  emailSchema,
  signupRequestSchema,
  loginRequestSchema,
  forgotPasswordRequestSchema,
  resetPasswordRequestSchema,
  tokenRequestSchema,
  changeEmailRequestSchema,
  changePasswordRequestSchema,
  accountDeletionPreviewSchema,
  type AccountDeletionPreview,
  deleteAccountRequestSchema,
  updateProfileRequestSchema,
  PROFILE_FIELDS,
  usernameAvailabilitySchema,
  sessionListSchema,
  messageRequestSchema,
  PASSWORD_MIN_LENGTH,
  MAX_PINNED_APPS,
  AVATAR_UPLOAD_TYPES,
  AVATAR_UPLOAD_MAX_BYTES,
  type SignupRequest,
  type UpdateProfileRequest,
  type UsernameAvailability,
  type SessionInfo,
  type MessageRequest,
} from './accounts';
export {
  HUMAN_CHECK_HEADER,
  HUMAN_CHECK_PATH_HEADER,
  HUMAN_CHECK_METHOD_HEADER,
  HUMAN_CHECK_REQUEST_HEADER,
  HUMAN_CHECK_CHALLENGE_PATH,
  PROTECTED_ENDPOINTS,
  isProtectedEndpoint,
  protectedEndpoint,
} from './human-check';
export { appResponseSchema, type AppSummary } from './app-summary';
export {
  createAppRequestSchema,
  setArchivedRequestSchema,
  appListResponseSchema,
  collaboratorSchema,
  collaboratorListSchema,
  inviteRequestSchema,
  collaboratorUsernameSchema,
  PLAN_LIMITS,
  type Collaborator,
} from './apps';
export {
  EXPLORE_SORTS,
  exploreQuerySchema,
  exploreSearchSchema,
  exploreApiPath,
  exploreResponseSchema,
  type ExploreQuery,
  type ExploreParams,
  type ExploreResponse,
} from './explore-query';
export {
  EXPLORE_PAGE_SIZE,
  APP_EVENT_KINDS,
  appVersionSchema,
  publishRequestSchema,
  publicationSchema,
  visibilityRequestSchema,
  appEventRequestSchema,
  type AppVersion,
  type PublishRequest,
  type Publication,
} from './publishing';
export {
  appShellHtml,
  appShellTarget,
  type AppShellOptions,
  type AppShellTarget,
  shellDocument,
  type ShellDocument,
} from './app-shell';
export { libraryEntrySchema, type LibraryEntry } from './library-entry';
export {
  normalizeLibraryEntry,
  sameLibraryEntry,
  mergeLibraryEntry,
  mergeLibraries,
  lastUsedAt,
  isInLibrary,
  listLibrary,
  isNewerVersion,
} from './library';
export { SHOWCASE_PWA } from './showcase';
export {
  EMOJI_IMAGE_PATH,
  OFFLINE_EMOJI,
  contrastRatio,
  emojiImagePath,
  emojiOfImagePath,
  iconLetterColor,
  relativeLuminance,
} from './emoji-image';
export {
  accountSchema,
  sessionResponseSchema,
  type Account,
  type SessionResponse,
} from './session';
export { RETURN_PATH_MAX_LENGTH, returnPath } from './return-path';
export { appIconSchema, appIdSchema, type AppIcon } from './app-basics';
export { VISIBILITIES, type AppRole, type CollaboratorRole, type Visibility } from './app-access';
export {
  appAuthorSchema,
  publishProblemSchema,
  appLineageSchema,
  appCardSchema,
  publishedAppSchema,
  type AppAuthor,
  type PublishProblem,
  type AppLineage,
  type AppCard,
  type PublishedApp,
} from './published-app';
export { PUBLISHED_VIEWER_HEADER, ANONYMOUS_VIEWER } from './published-viewer';
export { appPwaPaths } from './app-shell';
export { HEAD_SCRIPTS, THEME_STORAGE_KEY, withHeadScripts } from './head-scripts';
export {
  ACCOUNT_STORAGE_KEY,
  FIRST_SCREEN_ELEMENT_ID,
  FIRST_SCREEN_FORMAT,
  FIRST_SCREEN_KEY_PREFIX,
  FIRST_SCREEN_STYLE_ATTRIBUTE,
  firstScreenDay,
  type KeptFirstScreen,
} from './first-screen';
export { groupedCount } from './grouped-count';
export { pageSearchSchema } from './page-search';
export { lazySchema } from './lazy-schema';
export { EMAIL_PATTERN, ISO_DATE_TIME_PATTERN } from './formats';
export {
  anyAnswer,
  answerParser,
  parseLibraryEntry,
  readAccount,
  readApiError,
  readClientConfig,
  readErrorReportingConfig,
  readPublishedApp,
  readSessionResponse,
  type AnswerParser,
} from './answer-readers';
export {
  clientConfigSchema,
  errorReportingConfigSchema,
  MONITORING_PATH,
  monitoringTunnel,
  type ClientConfig,
  type ErrorReportingConfig,
} from './client-config';
export {
  breadcrumbsOf,
  isJsonObject,
  mainExceptionOf,
  redactReport,
  redactUrl,
} from './report-privacy';
export {
  droppedReportsSchema,
  ERROR_GROUPS_PAGE_SIZE,
  errorGroupSchema,
  errorGroupsQuerySchema,
  errorGroupsResponseSchema,
  REPORT_DROP_REASONS,
  type DroppedReports,
  type ErrorGroup,
  type ErrorGroupsResponse,
  type ReportDropReason,
} from './error-groups';
export {
  adminMessageSchema,
  adminMessagesResponseSchema,
  DIGEST_PATTERN,
  errorDetailSchema,
  errorEventSchema,
  MESSAGES_PAGE_SIZE,
  type AdminMessage,
  type ErrorDetail,
  type ErrorEvent,
  AI_USAGE_DAYS,
  aiUsageRowSchema,
  aiUsageResponseSchema,
  backupRunSummarySchema,
  type BackupRunSummary,
  instanceHealthSchema,
  type InstanceHealth,
  serverHealthSchema,
  type ServerHealth,
  type AiUsageRow,
  type AiUsageResponse,
} from './admin';
export {
  AI_BINDING_MAX_LENGTH,
  AI_BINDINGS_MAX,
  AI_DESCRIPTION_MAX_LENGTH,
  AI_INSTRUCTION_MAX_LENGTH,
  AI_RUN_SOURCES,
  aiRunRequestSchema,
  aiRunOutputSchema,
  aiRunResponseSchema,
  aiStatusSchema,
  aiBlueprintRequestSchema,
  aiEditRequestSchema,
  type AiRunSource,
  type AiRunRequest,
  type AiRunOutput,
  type AiRunResponse,
  type AiStatus,
} from './ai';
export {
  AI_RUNS_PER_MINUTE,
  AI_NOT_CONFIGURED_MESSAGE,
  AI_OUTPUT_INVALID_MESSAGE,
  AI_PROVIDER_FAILURE_MESSAGES,
  type AiProviderFailure,
} from './ai-messages';
export {
  aiBlueprintLineSchema,
  aiEditResponseSchema,
  type AiBlueprintLine,
  type AiEditResponse,
  type AiEditRequest,
  AI_REVISIONS_MAX,
  AI_SUMMARY_LINE_MAX_LENGTH,
  AI_SUMMARY_LINES_MAX,
} from './ai';
export {
  CHECKPOINT_KINDS,
  THINNED_CHECKPOINT_KINDS,
  AUTO_CHECKPOINT_INTERVAL_MS,
  HISTORY_LIMITS,
  checkpointChangesSchema,
  checkpointSchema,
  checkpointListSchema,
  checkpointWithDefinitionSchema,
  createCheckpointRequestSchema,
  upstreamSchema,
  upstreamResponseSchema,
  upstreamVersionsResponseSchema,
  type UpstreamVersions,
  pulledVersionRequestSchema,
  type Upstream,
  type CheckpointKind,
  type CheckpointChanges,
  type Checkpoint,
  type CheckpointList,
  type CreateCheckpointRequest,
  CHANGE_AUTHOR_KINDS,
  ATTRIBUTION_LIMITS,
  appChangeSchema,
  appChangeListSchema,
  appChangeQuerySchema,
  type ChangeAuthorKind,
  type AppChange,
  type AppChangeList,
} from './history';
export {
  uploadUrl,
  APP_IMAGE_TYPES,
  APP_IMAGE_MAX_BYTES,
  APP_IMAGE_MAX_SIDE_PX,
  appImageResponseSchema,
  exportQuerySchema,
  importQuerySchema,
  importedAppSchema,
  importResponseSchema,
  type AppImageResponse,
  type ImportResponse,
} from './portable';
export {
  RECORD_FILE_HASH_PATTERN,
  RECORD_FILE_REFERENCE_PATTERN,
  RECORD_FILE_KINDS,
  RECORD_FILE_LIMITS,
  RECORD_FILE_SAFE_TYPES,
  recordFilePath,
  type RecordFileKind,
  type RecordFileScope,
} from './record-file-limits';
export {
  PUSH_DEVICE_ID_PATTERN,
  PUSH_ENDPOINT_MAX_LENGTH,
  pushSubscribeRequestSchema,
  pushUnsubscribeRequestSchema,
  platformPushSubscribeRequestSchema,
  platformPushUnsubscribeRequestSchema,
  creatorNotificationSettingsRequestSchema,
  EMAIL_DIGEST_CHOICES,
  type EmailDigestChoice,
  type CreatorNotificationSettings,
  type PushSubscribeRequest,
  type PushSubscriptionSummary,
} from './push';
export {
  recordFileQuerySchema,
  recordFileDownloadQuerySchema,
  recordFileResponseSchema,
  type RecordFileResponse,
} from './record-files';
export {
  SPACE_ROLES,
  SPACE_GRANTABLE_ROLES,
  SPACE_LIMITS,
  type SpaceRole,
  type SpaceGrantableRole,
} from './space-limits';
export {
  SPACE_ENDING_REASONS,
  SPACE_ENDING_DAYS,
  spaceIdSchema,
  spaceNameSchema,
  spaceSummarySchema,
  spaceMemberSchema,
  spaceInviteSchema,
  spaceEndingSchema,
  spaceListResponseSchema,
  createSpaceRequestSchema,
  spaceResponseSchema,
  renameSpaceRequestSchema,
  spaceDetailResponseSchema,
  setSpaceMemberRequestSchema,
  spaceMemberResponseSchema,
  createSpaceInviteRequestSchema,
  createSpaceInviteResponseSchema,
  spaceInviteTokenSchema,
  spaceInvitePreviewSchema,
  acceptSpaceInviteResponseSchema,
  spaceInvitePath,
  type SpaceSummary,
  type SpaceMember,
  type SpaceInvite,
  type SpaceDetail,
  type SpaceInvitePreview,
  type SpaceInviteStanding,
  type SpaceEnding,
  type SpaceEndingReason,
} from './spaces';
export {
  spaceActivityChoiceSchema,
  spaceActivitySettingsSchema,
  spaceActivityListSchema,
  type SpaceActivityChoice,
  type SpaceActivitySettings,
  type SpaceActivityList,
} from './space-activity';
export {
  jsonForScript,
  jsonDataBlock,
  withDataBlock,
  PAGE_DATA_ELEMENT_ID,
  pageDataBlock,
  sentAnswerOf,
  type SentAnswer,
  type SentAnswers,
} from './page-data';
export {
  Acknowledgements,
  observedWebSocket,
  trackAcknowledgements,
} from './sync-acknowledgements';
export { redactUrlSecrets, redactUrlSecretsInText, SECRET_PATH_PREFIXES } from './url-secrets';
export {
  isLocalPath,
  PUSH_BODY_MAX,
  PUSH_PATH_MAX,
  PUSH_TAG_MAX,
  PUSH_TITLE_MAX,
  readPushMessage,
  type PushMessage,
} from './push-messages';
export {
  SUGGESTION_LIMITS,
  SUGGESTION_STATUSES,
  type SuggestionStatus,
  createSuggestionRequestSchema,
  type CreateSuggestionRequest,
  suggestionSchema,
  type SuggestionSummary,
  suggestionListSchema,
  type SuggestionList,
  suggestionWithDefinitionsSchema,
  closeSuggestionRequestSchema,
} from './suggestions';
export {
  DRAFT_LIMITS,
  DRAFT_STATUSES,
  type DraftStatus,
  createDraftRequestSchema,
  type CreateDraftRequest,
  updateDraftRequestSchema,
  type UpdateDraftRequest,
  closeDraftRequestSchema,
  draftSchema,
  type DraftSummary,
  draftListSchema,
  type DraftList,
  draftWithBaseSchema,
} from './drafts';
