import { createId, USERNAME_PATTERN } from '@pipit/protocol';
import { afterEach, expect, it } from 'vitest';
import { systemClock } from '../../src/accounts/clock';
import { createOperators } from '../../src/accounts/operators';
import { runOperatorCommand } from '../../src/operator-command';
import type { Storage } from '../../src/storage/types';
import { openEngine } from '../support/engines';
import { insertUser } from '../support/users';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** An account id that also reads as a username (26 of a-z2-7 starting with a letter: 26 in 32). */
function usernameLikeId(): string {
  for (;;) {
    const id = createId();
    if (USERNAME_PATTERN.test(id)) return id;
  }
}

/**
 * Account ids are shown to collaborators, and most are valid usernames: someone can sign up under
 * an operator's id. `npm run operator -- remove <id>` must still remove that operator.
 */
it('removes an operator by id even when someone took that id as a username', async () => {
  const engine = await openEngine('sqlite');
  cleanup = engine.cleanup;
  const storage: Storage = engine.storage;
  const operatorId = usernameLikeId();
  await insertUser(storage, { id: operatorId, username: 'ops', emailVerifiedAt: Date.now() });
  const operators = createOperators({ storage, clock: systemClock });
  await operators.add('ops');
  // Someone signs up with the operator's id as their username (the real sign-up accepts it).
  await insertUser(storage, { username: operatorId });
  const lines: string[] = [];
  const code = await runOperatorCommand(['remove', operatorId], {
    operators,
    output: { log: (l) => lines.push(l), error: (l) => lines.push(l) },
  });
  expect(code).toBe(0);
  expect(await operators.isOperator(operatorId)).toBe(false);
  await storage.close();
});
