export {
  startPipit,
  CLIENT_DIR,
  ROOT_DIR,
  type RunningPipit,
  type StartOptions,
  type LogLine,
} from './start-server';
export { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from './postgres';
export { insertUser, testUser } from './users';
export { makeOperator } from './operators';
export { startTestSmtp, linkIn, type TestSmtp, type ReceivedMail } from './smtp';
export { ApiClient, solveHumanCheck, errorCode } from './api-client';
export { testClock, type TestClock } from './clock';
export {
  startAiStandIn,
  type AiStandIn,
  type AiStandInOptions,
  type StandInAnswer,
  type StandInScript,
  type StandInRequest,
  type StandInChatBody,
} from './ai-stand-in';
export {
  startPushServiceStandIn,
  decryptAes128gcm,
  PUSH_MAX_BODY_BYTES,
  type PushServiceStandIn,
  type StandInSubscription,
  type DeliveredPush,
  type RefusedPush,
  type ScriptedAnswer,
  type PushUrgency,
} from './push-service';
