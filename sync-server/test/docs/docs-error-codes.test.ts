import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES_PAGE, renderErrorCodesPage } from '../../../scripts/docs/error-codes';

const ROOT = path.resolve(import.meta.dirname, '../../..');

describe(ERROR_CODES_PAGE, () => {
  it('is what `npm run docs` generates from @pipit/protocol today', async () => {
    const committed = readFileSync(path.join(ROOT, ERROR_CODES_PAGE), 'utf8');
    const generated = await renderErrorCodesPage();
    expect(
      committed === generated,
      `${ERROR_CODES_PAGE} is out of date with the protocol's error codes: run \`npm run docs\` and commit it.`,
    ).toBe(true);
  });
});
