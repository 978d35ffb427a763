/**
 * AI figures: what the server itself adds to a run of an AI action (reading the stored template,
 * filling it, deriving the JSON schema, checking the answer), against the local OpenAI-compatible
 * stand-in answering at once; and, when AI_BASE_URL (and AI_MODEL) are set, the end-to-end latency
 * of the same structured request against that provider. Prints figures; not a pass/fail test.
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

const QUICK = process.argv.includes('--quick');
const RUNS = QUICK ? 50 : 300;
const PURE_ROUNDS = QUICK ? 2_000 : 20_000;
const PROVIDER_RUNS = QUICK ? 3 : 10;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

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

async function againstStandIn() {
  const standIn = await startAiStandIn();
  standIn.setDefault(JSON.stringify(answer));
  const h = await startAccountsServer('sqlite', {
    env: standIn.env({ AI_DAILY_RUNS: '1000000', LOG_LEVEL: 'warn' }),
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
    const body = { appId, aiActionId: action.id, bindings };

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

async function againstProvider() {
  const config = loadConfig(process.env).ai;
  if (!config) return;
  const provider = createAiProvider(
    config,
    createLogger('warn', new Writable({ write: (_c, _e, done) => done() })),
  )!;
  const prompt = fillTemplate(action.prompt, (expression) => {
    const name = bindingName(expression);
    return name !== null && Object.hasOwn(bindings, name)
      ? bindings[name as keyof typeof bindings]
      : '';
  });
  const samples: number[] = [];
  let failures = 0;
  let tokens = 0;
  for (let i = 0; i < PROVIDER_RUNS; i += 1) {
    const started = performance.now();
    try {
      const result = await provider.completeStructured({
        system: 'Answer with one JSON object for a new shopping list item.',
        user: prompt,
        name: 'record',
        jsonSchema: aiRecordJsonSchema(shopping),
        parse: (value) => checkAiRecord(shopping, value),
      });
      tokens += result.usage.promptTokens + result.usage.completionTokens;
      samples.push(performance.now() - started);
    } catch (error) {
      failures += 1;
      console.log(
        `  run ${i + 1} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  console.log(`\nEnd to end against ${config.baseUrl} (${config.model}), one structured record:`);
  if (samples.length > 0) line('run (with a repair round when needed)', samples);
  console.log(
    `  ${samples.length} fitting answers, ${failures} failed; ${samples.length ? Math.round(tokens / samples.length) : 0} tokens per run on average`,
  );
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
