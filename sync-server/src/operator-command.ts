import { OperatorError, type Operators } from './accounts/operators';

/** Where the command writes: results to `log`, refusals and usage to `error` (console fits). */
export interface CommandOutput {
  log(line: string): void;
  error(line: string): void;
}

export const OPERATOR_USAGE = [
  'Usage: npm run operator -- add USERNAME      make this account an operator',
  '       npm run operator -- remove USERNAME   end its role (an id from `list` also works)',
  '       npm run operator -- list              show every operator',
].join('\n');

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * `npm run operator -- add|remove|list`: who sees the operator's inbox at /admin. Names are looked
 * up once, here, and the account's id is stored, so a later rename (or someone taking the name)
 * moves nothing. Returns the exit code: 0 done, 1 refused, 2 misused.
 */
export async function runOperatorCommand(
  args: readonly string[],
  { operators, output }: { operators: Operators; output: CommandOutput },
): Promise<number> {
  const [action, name, ...extra] = args;
  const needsName = action === 'add' || action === 'remove';
  if (
    (action !== 'list' && !needsName) ||
    (needsName && !name?.trim()) ||
    (action === 'list' && name !== undefined) ||
    extra.length > 0
  ) {
    output.error(OPERATOR_USAGE);
    return 2;
  }
  try {
    switch (action) {
      case 'add': {
        const { user, added } = await operators.add(name!);
        output.log(
          added
            ? `${user.username} (${user.email}, account ${user.id}) is now an operator: signed in, they see /admin.`
            : `${user.username} is already an operator.`,
        );
        return 0;
      }
      case 'remove': {
        const removed = await operators.remove(name!);
        if (!removed) {
          output.error(
            `${name!.trim()} is not an operator. \`npm run operator -- list\` shows who is.`,
          );
          return 1;
        }
        output.log(`${name!.trim()} is no longer an operator.`);
        return 0;
      }
      default: {
        const all = await operators.list();
        if (all.length === 0) {
          output.log('No operators yet. Add one with `npm run operator -- add USERNAME`.');
          return 0;
        }
        for (const o of all) {
          const who = o.username ? `${o.username} <${o.email}>` : '(deleted account)';
          const state = o.inactive ? `  — not active: ${o.inactive}` : '';
          output.log(`${who}  account ${o.userId}, since ${day(o.addedAt)}${state}`);
        }
        return 0;
      }
    }
  } catch (error) {
    if (!(error instanceof OperatorError)) throw error;
    output.error(error.message);
    return 1;
  }
}
