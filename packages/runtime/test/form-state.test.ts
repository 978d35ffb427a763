import { describe, expect, it } from 'vitest';
import { initialFormInput, validateForm } from '../src/index';
import { tasks } from './support/fixture';

const fields = tasks.fields;

describe('initialFormInput', () => {
  it('starts from defaults, or from the record being edited', () => {
    expect(initialFormInput(fields, null)).toEqual({
      title: '',
      minutes: '',
      done: false,
      area: '',
      due: '',
      notes: '',
      site: '',
      mail: '',
    });
    const input = initialFormInput(fields, {
      title: 'Walk',
      minutes: 20,
      done: true,
      due: 'not a date',
    });
    expect(input).toMatchObject({ title: 'Walk', minutes: '20', done: true, due: '' });
  });
});

describe('validateForm', () => {
  const valid = {
    title: ' Walk ',
    minutes: '20',
    done: true,
    area: 'work',
    due: '2025-06-01',
    notes: 'Along the river',
    site: 'https://example.com',
    mail: 'ana@example.com',
  };

  it('turns the controls’ text into the fields’ values', () => {
    expect(validateForm(fields, valid)).toEqual({
      values: {
        title: 'Walk',
        minutes: 20,
        done: true,
        area: 'Work',
        due: '2025-06-01',
        notes: 'Along the river',
        site: 'https://example.com',
        mail: 'ana@example.com',
      },
      errors: {},
    });
    expect(validateForm(fields, { ...valid, minutes: '', site: '' }).values).toMatchObject({
      minutes: null,
      site: null,
    });
  });

  it.each([
    ['title', '', 'Fill in Title.'],
    ['minutes', 'ten', 'Minutes must be a number, like 12 or 3.5.'],
    ['area', 'Garden', 'Choose one of the options for Area.'],
    ['due', '2025-02-30', 'Enter Due as a date (YYYY-MM-DD).'],
    ['site', 'javascript:alert(1)', 'Use a web address starting with https:// for Site.'],
    ['mail', 'ana@', 'Enter an email address like name@example.com for Mail.'],
    ['title', 'x'.repeat(1_001), 'Title is too long: use at most 1,000 characters.'],
  ])('refuses a bad %s (%s)', (fieldId, value, message) => {
    const checked = validateForm(fields, { ...valid, [fieldId]: value });
    expect(checked.errors).toEqual({ [fieldId]: message });
  });

  it('reports every problem at once', () => {
    const checked = validateForm(fields, { title: '', minutes: 'x', mail: 'nope' });
    expect(Object.keys(checked.errors)).toEqual(['title', 'minutes', 'mail']);
  });
});
