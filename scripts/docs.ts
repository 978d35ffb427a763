import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CODES_PAGE, renderErrorCodesPage } from './docs/error-codes';

/** `npm run docs`: writes the pages of docs/ that are generated from the code. */
const ROOT = path.resolve(import.meta.dirname, '..');
writeFileSync(path.join(ROOT, ERROR_CODES_PAGE), await renderErrorCodesPage());
console.log(`wrote ${ERROR_CODES_PAGE}`);
