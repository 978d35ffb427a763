/**
 * AI figures: what the server itself adds to a run of an AI action (reading the stored template,
 * filling it, deriving the JSON schema, checking the answer), against the local OpenAI-compatible
 * stand-in answering at once; and, when AI_BASE_URL (and AI_MODEL) are set, the end-to-end latency
 * of a whole run through a Pipit server pointed at that provider (`POST /api/ai/runs`, as a
 * signed-in visitor of a published app: Pipit's prompt, schema, repair round and check included).
 * Prints figures; not a pass/fail test.
 * Run: npm run bench -- ai   (--quick: fewer runs)
 */
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import {
  type AiAction,
  aiRecordJsonSchema,
  checkAiRecord,
  type Collection,
  fillTemplate,
  bindingName,
} from '@pipit/app-definition';
import { startAiStandIn } from '@pipit/sync-server/testing';
// Not re-exported by @pipit/sync-server/testing; imported by path, as the server's own tests do.
import { createAiProvider } from '../sync-server/src/ai/provider';
import { loadConfig } from '../sync-server/src/config';
import { createLogger } from '../sync-server/src/logger';
import { startAccountsServer } from '../sync-server/test/support/engines';
import {
  definitionOf,
  publishDefinition,
  verifyEmail,
} from '../sync-server/test/support/publishing';
import { percentile } from '../sync-server/test/support/timing';

const QUICK = process.argv.includes('--quick');
const RUNS = QUICK ? 50 : 300;
const PURE_ROUNDS = QUICK ? 2_000 : 20_000;
const PROVIDER_RUNS = QUICK ? 3 : 10;

const ms = (n: number) => `${n.toFixed(n < 1 ? 3 : 1)} ms`;
function line(label: string, samples: number[]) {
  console.log(
    `  ${label.padEnd(52)} p50 ${ms(percentile(samples, 50)).padStart(10)}   p99 ${ms(percentile(samples, 99)).padStart(10)}   (${samples.length} runs)`,
  );
}

const fields = { item: 'item', aisle: 'aisle', qty: 'qty', notes: 'notes', link: 'link' };
const shopping: Collection = {
  id: 'shopping',
  name: 'Shopping',
  fields: [
    { id: fields.item, name: 'Item', type: 'text', required: true, default: null, options: [] },
    {
      id: fields.aisle,
      name: 'Aisle',
      type: 'select',
      required: false,
      default: null,
      options: ['Fruit and vegetables', 'Dairy', 'Bakery', 'Pantry', 'Frozen'],
    },
    {
      id: fields.qty,
      name: 'Quantity',
      type: 'number',
      required: false,
      default: null,
      options: [],
    },
    {
      id: fields.notes,
      name: 'Notes',
      type: 'longText',
      required: false,
      default: null,
      options: [],
    },
    { id: fields.link, name: 'Link', type: 'url', required: false, default: null, options: [] },
  ],
  records: [],
  sharing: 'private',
  recordRule: 'anyone',
};
const action: AiAction = {
  id: 'make-list',
  name: 'Make shopping list',
  prompt:
    'Add one item to the shopping list for this note: {{input.note}}\nThe shopper is {{user.name}}. Put it in the right aisle.',
  output: { kind: 'record', collectionId: shopping.id },
  target: { kind: 'createRecord', collectionId: shopping.id },
};
const bindings = { 'input.note': 'we are out of oat milk, get two', 'user.name': 'Ada' };
const answer = {
  [fields.item]: 'Oat milk',
  [fields.aisle]: 'Dairy',
  [fields.qty]: 2,
  [fields.notes]: null,
  [fields.link]: null,
};

function pureSteps(): number[] {
  const samples: number[] = [];
  for (let i = 0; i < PURE_ROUNDS; i += 1) {
    const started = performance.now();
    fillTemplate(action.prompt, (expression) => {
      const name = bindingName(expression);
      return name !== null && Object.hasOwn(bindings, name)
        ? bindings[name as keyof typeof bindings]
        : '';
    });
    aiRecordJsonSchema(shopping);
    const checked = checkAiRecord(shopping, JSON.parse(JSON.stringify(answer)));
    if (!checked.ok) throw new Error(checked.problems.join(' '));
    samples.push(performance.now() - started);
  }
  return samples;
}

/**
 * A Pipit server (SQLite) whose AI settings are `aiEnv`, with a published app holding the AI action
 * and a signed-in visitor, and the body of one run of it.
 */
async function pipitWithAiApp(aiEnv: Record<string, string>) {
  const h = await startAccountsServer('sqlite', {
    env: { ...aiEnv, AI_DAILY_RUNS: '1000000', LOG_LEVEL: 'warn' },
  });
  try {
    const owner = await h.signup('bench_owner');
    await verifyEmail(h, owner);
    const base = definitionOf({ title: 'Groceries' });
    const appId = await publishDefinition(h, owner, {
      ...base,
      collections: [...base.collections, shopping],
      aiActions: [action],
    });
    const visitor = await h.signup('bench_visitor');
    return { h, visitor, body: { appId, aiActionId: action.id, bindings } };
  } catch (error) {
    await h.close();
    throw error;
  }
}

async function againstStandIn() {
  const standIn = await startAiStandIn();
  standIn.setDefault(JSON.stringify(answer));
  const { h, visitor, body } = await pipitWithAiApp(standIn.env());
  try {
    const provider = createAiProvider(
      loadConfig(standIn.env()).ai,
      createLogger('silent', new Writable({ write: (_c, _e, done) => done() })),
    )!;
    const direct: number[] = [];
    const http: number[] = [];
    for (let i = 0; i < RUNS + 10; i += 1) {
      // The provider alone: the same request straight to the stand-in.
      let started = performance.now();
      await provider.complete({
        system: 'bench',
        user: 'bench',
        jsonSchema: { name: 'record', schema: aiRecordJsonSchema(shopping) },
      });
      const directMs = performance.now() - started;
      // A whole run through Pipit: HTTP, session, visibility, published definition, quota, the
      // provider, the check, usage.
      started = performance.now();
      const run = await visitor.post('/api/ai/runs', body);
      const httpMs = performance.now() - started;
      if (run.status !== 200) throw new Error(`run: ${JSON.stringify(run.body)}`);
      if (i >= 10) {
        direct.push(directMs);
        http.push(httpMs);
      }
    }
    return { direct, http };
  } finally {
    await h.close();
    await standIn.close();
  }
}

/** The provider's settings as the server reads them (AI_*), to start Pipit with. */
const AI_SETTINGS = ['AI_BASE_URL', 'AI_MODEL', 'AI_API_KEY', 'AI_TIMEOUT_MS'] as const;

async function againstProvider() {
  // Checked first, with the server's own words for a bad value.
  const config = loadConfig(process.env).ai;
  if (!config) return;
  const aiEnv = Object.fromEntries(
    AI_SETTINGS.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])),
  );
  const { h, visitor, body } = await pipitWithAiApp(aiEnv);
  const samples: number[] = [];
  const failures = new Map<string, number>();
  try {
    for (let i = 0; i < PROVIDER_RUNS; i += 1) {
      // The whole run, as an app asks for it: Pipit's prompt and JSON schema, the provider, the
      // repair round when the answer does not fit, the check, the quota and usage.
      const started = performance.now();
      const run = await visitor.post('/api/ai/runs', body);
      const elapsed = performance.now() - started;
      if (run.status === 200) samples.push(elapsed);
      else {
        const error = (run.body as { error?: { code?: string; message?: string } }).error;
        const said = `${error?.code ?? run.status}: ${error?.message ?? ''}`;
        failures.set(said, (failures.get(said) ?? 0) + 1);
      }
    }
    // Tokens as the server counted them for /admin (fitting and misfitting answers alike).
    const usage = await h.pipit.server.storage.aiUsage.dailyUsage(0);
    const tokens = usage.reduce((sum, r) => sum + r.promptTokens + r.completionTokens, 0);
    console.log(
      `\nEnd to end against ${config.baseUrl} (${config.model}), POST /api/ai/runs for one record:`,
    );
    if (samples.length > 0) line('whole run (with a repair round when needed)', samples);
    const failed = [...failures.values()].reduce((sum, n) => sum + n, 0);
    console.log(
      `  ${samples.length} fitting answers, ${failed} failed; ${Math.round(tokens / PROVIDER_RUNS)} tokens per run on average`,
    );
    for (const [said, count] of failures) console.log(`  ${count} × ${said}`);
  } finally {
    await h.close();
  }
}

console.log(`AI runs (${QUICK ? 'quick' : 'full'})\n`);
console.log('The server’s own work per run, in process (template, JSON schema, check):');
line('fill template + derive schema + check answer', pureSteps());

const { direct, http } = await againstStandIn();
console.log('\nAgainst the local stand-in answering at once (127.0.0.1, SQLite):');
line('provider request alone (openai client → stand-in)', direct);
line('POST /api/ai/runs, whole run', http);
const overhead = http.map((value, i) => value - direct[i]!);
line('Pipit’s overhead per run (run − provider request)', overhead);

if (process.env.AI_BASE_URL) await againstProvider();
else console.log('\nSet AI_BASE_URL and AI_MODEL to measure a real provider end to end.');
