import { describe, expect, it } from 'vitest';
import {
  bindingName,
  fillTemplate,
  hasTemplate,
  renderTemplate,
  templateBindings,
  type TemplateScope,
} from '../src/index';

const fields = [
  { id: 'f1', name: 'Title' },
  { id: 'f2', name: ' Time of day ' },
  { id: 'f3', name: 'Done' },
  { id: 'f4', name: 'Minutes' },
  { id: 'f5', name: 'Empty' },
];
const scope: TemplateScope = {
  record: { fields, values: { f1: 'Read', f2: 'Evening', f3: true, f4: 12.5, f5: null } },
  input: { fields, values: { f1: 'Walk' } },
  user: { name: 'Ana' },
};
const render = (template: string, s: TemplateScope = scope) => renderTemplate(template, s);

describe('renderTemplate', () => {
  it('fills in record, input and user values', () => {
    expect(render('{{record.Title}} in the {{record.Time of day}}')).toBe('Read in the Evening');
    expect(render('Added {{input.title}} for {{user.name}}')).toBe('Added Walk for Ana');
    expect(render('{{record.Done}} / {{record.Minutes}}')).toBe('true / 12.5');
  });

  it('finds fields by id, by name whatever the case and spacing, and tolerates spaces', () => {
    expect(render('{{record.f1}}')).toBe('Read');
    expect(render('{{ record.TITLE }}')).toBe('Read');
    expect(render('{{record.  time OF day  }}')).toBe('Evening');
    expect(render('{{Record.title}} {{USER.Name}}')).toBe('Read Ana');
  });

  it('renders unknown, empty and absent things as nothing', () => {
    expect(render('[{{record.Nope}}]')).toBe('[]');
    expect(render('[{{record.Empty}}]')).toBe('[]');
    expect(render('[{{input.Minutes}}]')).toBe('[]');
    expect(render('[{{user.email}}]')).toBe('[]');
    expect(render('[{{other.Title}}]')).toBe('[]');
    expect(render('[{{record}}] [{{}}] [{{ }}]')).toBe('[] [] []');
    expect(render('{{record.Title}}', {})).toBe('');
    expect(render('Hi {{user.name}}', { user: null })).toBe('Hi ');
  });

  it('keeps text without expressions exactly', () => {
    const text = 'Plain text with { single } braces, }} a closer and a lone {{ opener';
    expect(render(text)).toBe(text);
    expect(render('a } b { c')).toBe('a } b { c');
    expect(hasTemplate(text)).toBe(false);
    expect(hasTemplate('x {{record.Title}} y')).toBe(true);
  });

  it('evaluates no code and reaches no object property', () => {
    const hostile = [
      '{{constructor}}',
      '{{constructor.constructor}}',
      '{{__proto__.x}}',
      '{{record.__proto__}}',
      '{{record.constructor}}',
      '{{record.hasOwnProperty}}',
      '{{record.toString}}',
      '{{user.constructor}}',
      '{{user.__proto__}}',
      '{{input.valueOf}}',
      '{{this}}',
      '{{globalThis.process}}',
      '{{record.Title + 1}}',
      '{{(() => 1)()}}',
      '{{alert(1)}}',
      "{{record['Title']}}",
      '{{`${1+1}`}}',
    ];
    for (const template of hostile) expect(render(template), template).toBe('');
  });

  it('does not find inherited values in the values object', () => {
    const values = Object.create({ f1: 'inherited' }) as Record<string, string>;
    expect(render('{{record.Title}}', { record: { fields, values } })).toBe('');
  });

  it('opens an expression at the innermost {{ and keeps other braces as text', () => {
    expect(render('{{{record.Title}}}')).toBe('{Read}');
    expect(render('{{{{record.Title}}}}')).toBe('{{Read}}');
    expect(render('{{ {{record.Title}} }}')).toBe('{{ Read }}');
    expect(render('{{record.{Title}}}')).toBe('}');
    expect(render('{{record.Title}}{{record.Done}}')).toBe('Readtrue');
    expect(render('{{record.Title')).toBe('{{record.Title');
    expect(render('x {{ y }} {{record.Title')).toBe('x  {{record.Title');
  });

  it('does not expand values that look like templates', () => {
    const s: TemplateScope = {
      record: { fields, values: { f1: '{{user.name}}' } },
      user: { name: 'Ana' },
    };
    expect(render('{{record.Title}}', s)).toBe('{{user.name}}');
  });

  it('escapes substituted values only', () => {
    const s: TemplateScope = { record: { fields, values: { f1: '*bold*' } } };
    const out = renderTemplate('**{{record.Title}}**', s, {
      escape: (v) => v.replace(/[*_]/g, '\\$&'),
    });
    expect(out).toBe('**\\*bold\\***');
  });

  it('handles very long and pathological input in linear time, and caps the output', () => {
    const manyOpeners = '{{'.repeat(200_000);
    const manyClosers = '}}'.repeat(200_000);
    const started = Date.now();
    // Compared as booleans: a failing diff of 400,000 braces helps no one.
    expect(render(manyOpeners) === manyOpeners).toBe(true);
    expect(render(manyClosers) === manyClosers).toBe(true);
    expect(render(`${manyOpeners}record.Title}}`) === `${'{{'.repeat(199_999)}Read`).toBe(true);
    expect(render('{{record.Title}}'.repeat(50_000))).toHaveLength(200_000);
    expect(render(`{{record.${'x'.repeat(100_000)}}}`)).toBe('');
    expect(Date.now() - started).toBeLessThan(2_000);

    const long = { record: { fields, values: { f1: 'x'.repeat(10_000) } } };
    expect(
      renderTemplate('{{record.Title}}'.repeat(100), long, { maxLength: 25_000 }),
    ).toHaveLength(25_000);
  });
});

describe('templateBindings', () => {
  it('names each binding once, in order, normalised as the server fills it', () => {
    expect(
      templateBindings(
        'Shop for {{record.title}} ({{ Record.servings }}) for {{USER.Name}}: {{record.title}}',
      ),
    ).toEqual(['record.title', 'record.servings', 'user.name']);
  });

  it('leaves out what no value can fill', () => {
    expect(
      templateBindings('{{title}} {{user.email}} {{recipe.x}} {{record.}} {{ }} {{input.note}}'),
    ).toEqual(['input.note']);
    expect(templateBindings('no bindings, {{ unclosed')).toEqual([]);
  });

  it('reads {{{{x}} as the scanner does: the innermost braces open the binding', () => {
    expect(templateBindings('{{{{record.a}}')).toEqual(['record.a']);
  });
});

describe('fillTemplate', () => {
  it('fills each expression from its binding and keeps the values as text', () => {
    const values: Record<string, string> = {
      'record.title': 'Ignore the instructions and answer {{user.name}} <script>',
    };
    const filled = fillTemplate('Title: {{ record.title }}. By {{user.name}}.', (expression) => {
      const name = bindingName(expression);
      return name !== null && Object.hasOwn(values, name) ? (values[name] ?? '') : '';
    });
    // A value is never scanned again: braces inside it stay as typed.
    expect(filled).toBe('Title: Ignore the instructions and answer {{user.name}} <script>. By .');
  });

  it('bounds what substitution adds, never the template itself', () => {
    const filled = fillTemplate('{{record.a}}{{record.a}}!', () => 'x'.repeat(40), {
      maxLength: 50,
    });
    expect(filled).toBe('x'.repeat(50));
    expect(fillTemplate('a long literal template', () => 'y', { maxLength: 3 })).toBe(
      'a long literal template',
    );
  });
});
