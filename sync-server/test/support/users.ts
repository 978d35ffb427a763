import { createId } from '@pipit/protocol';
import type { NewUser, Storage, UserRecord } from '../../src/storage/types';

/** A user row for tests: unique id, username and email unless given. */
export function testUser(overrides: Partial<NewUser> = {}): NewUser {
  const suffix = createId().slice(0, 8);
  return {
    id: createId(),
    username: `user_${suffix}`,
    email: `${suffix}@example.org`,
    passwordHash: 'not-a-real-hash',
    ...overrides,
  };
}

/** Inserts a test user straight into storage (accounts have no sign-up flow yet). */
export function insertUser(
  storage: Storage,
  overrides: Partial<NewUser> = {},
): Promise<UserRecord> {
  return storage.users.insert(testUser(overrides));
}
