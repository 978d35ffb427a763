import { describe, expect, it } from 'vitest';
import {
  AI_RUN_SYSTEM_MESSAGE,
  aiRecordJsonSchema,
  aiRecordSchema,
  checkAiRecord,
  checkAiTextForField,
  type Field,
  fieldSchema,
  planAiRun,
} from '../src/index';

const field = (id: string, type: Field['type'], more: Partial<Field> = {}): Field =>
  fieldSchema.parse({ id, name: id[0]!.toUpperCase() + id.slice(1), type, ...more });

const collection = {
  fields: [
    field('title', 'text', { required: true }),
    field('notes', 'longText'),
    field('servings', 'number'),
    field('vegan', 'boolean'),
    field('cooked', 'date'),
    field('course', 'select', { options: ['Starter', 'Main'] }),
    field('source', 'url'),
    field('contact', 'email'),
  ],
};

describe('aiRecordJsonSchema', () => {
  const schema = aiRecordJsonSchema(collection) as {
    type: string;
    properties: Record<string, Record<string, unknown>>;
    required: string[];
    additionalProperties: boolean;
    $schema?: string;
  };

  it('asks for every field by id, and nothing else', () => {
    expect(schema.type).toBe('object');
    expect(schema.required).toEqual(collection.fields.map((f) => f.id));
    expect(schema.additionalProperties).toBe(false);
    expect(schema.$schema).toBeUndefined();
  });

  it('gives each field its type, name, choices, lengths and patterns; null only where optional', () => {
    expect(schema.properties.title).toEqual({
      type: 'string',
      maxLength: 1000,
      description: 'Title',
    });
    const optional = (name: string) =>
      (schema.properties[name]!.anyOf as Array<Record<string, unknown>>)[0]!;
    expect(schema.properties.servings!.anyOf).toContainEqual({ type: 'null' });
    expect(optional('servings')).toMatchObject({ type: 'number', description: 'Servings' });
    expect(schema.properties.vegan).toEqual({ type: 'boolean', description: 'Vegan' });
    expect(optional('course')).toMatchObject({ enum: ['Starter', 'Main'] });
    expect(optional('cooked').pattern).toBe('^[0-9]{4}-[0-9]{2}-[0-9]{2}$');
    expect(optional('source').pattern).toBe('^https?://[^ ]+$');
    expect(optional('notes').maxLength).toBeGreaterThan(1000);
  });

  it('is the JSON form of the zod schema the editor can show', () => {
    const parsed = aiRecordSchema(collection).safeParse({
      title: 'Soup',
      notes: null,
      servings: 2,
      vegan: true,
      cooked: '2026-01-31',
      course: 'Main',
      source: 'https://example.org/soup',
      contact: null,
    });
    expect(parsed.success).toBe(true);
    expect(aiRecordSchema(collection).safeParse({ title: 'Soup', extra: 1 }).success).toBe(false);
  });
});

describe('checkAiRecord', () => {
  const good = {
    title: 'Soup',
    notes: null,
    servings: 2,
    vegan: false,
    cooked: null,
    course: 'main',
    source: null,
    contact: null,
  };

  it('keeps values as a hand-made record stores them', () => {
    const result = checkAiRecord(collection, good);
    expect(result).toEqual({ ok: true, value: { ...good, course: 'Main' } });
  });

  it.each([
    [{ ...good, source: 'javascript:alert(1)' }, /web address/],
    [{ ...good, source: 'data:text/html,<script>alert(1)</script>' }, /web address/],
    [{ ...good, course: 'Dessert' }, /Choose one of the options for Course/],
    [{ ...good, servings: 'two' }, /Servings must be a number/],
    [{ ...good, cooked: '2026-02-30' }, /date/],
    [{ ...good, title: '' }, /Fill in Title/],
    [{ ...good, title: 'x'.repeat(1001) }, /too long/],
    [{ ...good, contact: 'not an email' }, /email/],
    [{ ...good, secret: 'x' }, /"secret" is not a field/],
    ['<script>alert(1)</script>', /one JSON object/],
    [[good], /one JSON object/],
    [null, /one JSON object/],
  ])('refuses %j', (answer, problem) => {
    const result = checkAiRecord(collection, answer);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.join(' ')).toMatch(problem);
  });
});

describe('checkAiTextForField', () => {
  it('holds a text answer to its field’s rules', () => {
    expect(checkAiTextForField(field('n', 'number'), ' 12 ')).toEqual({ ok: true, value: '12' });
    expect(checkAiTextForField(field('n', 'number'), 'twelve').ok).toBe(false);
    expect(checkAiTextForField(field('d', 'date'), '2026-01-31')).toEqual({
      ok: true,
      value: '2026-01-31',
    });
    expect(checkAiTextForField(field('u', 'url'), 'javascript:alert(1)').ok).toBe(false);
    expect(checkAiTextForField(field('c', 'select', { options: ['Red', 'Blue'] }), 'blue')).toEqual(
      { ok: true, value: 'Blue' },
    );
  });
});

describe('planAiRun', () => {
  const shopping = { id: 'shopping', name: 'Shopping', fields: collection.fields };

  it('fills the stored template with the values as text, and asks for the collection’s schema', () => {
    const planned = planAiRun(
      {
        prompt: 'Plan {{input.note}} for {{user.name}}; {{input.missing}}.',
        output: { kind: 'record', collectionId: 'shopping' },
        target: { kind: 'createRecord', collectionId: 'shopping' },
      },
      [shopping],
      { 'input.note': '{{user.name}} <b>soup</b>', 'user.name': 'Ada' },
    );
    expect(planned.ok).toBe(true);
    if (!planned.ok) return;
    // A value is never read as a template; a binding not given reads as ''.
    expect(planned.plan.user).toBe('Plan {{user.name}} <b>soup</b> for Ada; .');
    expect(planned.plan.system.startsWith(AI_RUN_SYSTEM_MESSAGE)).toBe(true);
    expect(planned.plan.system).toContain('"course": Course — one of: "Starter", "Main", or null');
    expect(planned.plan.output).toMatchObject({
      kind: 'record',
      jsonSchema: aiRecordJsonSchema(shopping),
    });
  });

  it('names the field a text answer is stored in', () => {
    const planned = planAiRun(
      {
        prompt: 'How many?',
        output: { kind: 'text' },
        target: { kind: 'field', fieldId: 'servings' },
      },
      [shopping],
      {},
    );
    expect(planned.ok && planned.plan.system).toContain(
      'the field “Servings”, which holds a number',
    );
  });

  it('asks for the collection a new record is created in, whatever the output names', () => {
    const lists = { id: 'lists', name: 'Lists', fields: [field('items', 'longText')] };
    const planned = planAiRun(
      {
        prompt: 'A list',
        output: { kind: 'record', collectionId: 'shopping' },
        target: { kind: 'createRecord', collectionId: 'lists' },
      },
      [shopping, lists],
      {},
    );
    expect(planned.ok).toBe(true);
    if (!planned.ok) return;
    expect(planned.plan.output).toEqual({
      kind: 'record',
      collection: lists,
      jsonSchema: aiRecordJsonSchema(lists),
    });
    expect(planned.plan.system).toContain('a new item of “Lists”');
  });

  it('holds a text for a new record to its collection’s first text field, where it lands', () => {
    const notes = {
      id: 'notes',
      name: 'Notes',
      fields: [field('when', 'date'), field('body', 'longText'), field('title', 'text')],
    };
    const planned = planAiRun(
      {
        prompt: 'A note',
        output: { kind: 'text' },
        target: { kind: 'createRecord', collectionId: 'notes' },
      },
      [shopping, notes],
      {},
    );
    expect(planned.ok).toBe(true);
    if (!planned.ok) return;
    expect(planned.plan.output).toEqual({ kind: 'text', field: notes.fields[1] });
    expect(planned.plan.system).toContain('the field “Body”, which holds a text');
    // No text field: the text is asked for as plain text.
    const dates = { id: 'dates', name: 'Dates', fields: [field('when', 'date')] };
    const plain = planAiRun(
      {
        prompt: 'A date',
        output: { kind: 'text' },
        target: { kind: 'createRecord', collectionId: 'dates' },
      },
      [dates],
      {},
    );
    expect(plain.ok && plain.plan.output).toEqual({ kind: 'text', field: null });
  });

  it('says what is missing: a prompt, a collection to fill', () => {
    expect(
      planAiRun({ prompt: ' ', output: { kind: 'text' }, target: { kind: 'component' } }, [], {}),
    ).toEqual({ ok: false, message: 'This AI action has no prompt yet. Write one in the editor.' });
    expect(
      planAiRun(
        {
          prompt: 'x',
          output: { kind: 'record', collectionId: 'gone' },
          target: { kind: 'component' },
        },
        [shopping],
        {},
      ).ok,
    ).toBe(false);
    // A new record with no collection (or a deleted one) could not be landed: no run is spent.
    for (const output of [
      { kind: 'text' as const },
      { kind: 'record' as const, collectionId: 'shopping' },
    ]) {
      expect(
        planAiRun(
          { prompt: 'x', output, target: { kind: 'createRecord', collectionId: null } },
          [shopping],
          {},
        ),
      ).toEqual({
        ok: false,
        message: 'This AI action has no collection to fill. Choose one in the editor.',
      });
    }
  });
});
