import { z } from 'zod';

// Before any schema parses: zod otherwise probes `new Function` once, and our CSP (script-src
// 'self', no 'unsafe-eval') reports that probe as a violation even though zod catches it.
z.config({ jitless: true });
