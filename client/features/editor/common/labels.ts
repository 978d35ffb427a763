import type { ComponentType, FieldType, ReadComponent, StepType } from '@pipit/app-definition';

/** What a person calls each component type, with a glyph for the menu and the tree. */
export const COMPONENT_LABELS: Record<ComponentType, { name: string; icon: string }> = {
  heading: { name: 'Heading', icon: 'H' },
  text: { name: 'Text', icon: '¶' },
  image: { name: 'Image', icon: '▣' },
  button: { name: 'Button', icon: '▭' },
  list: { name: 'List', icon: '☰' },
  detail: { name: 'Detail', icon: '≣' },
  form: { name: 'Form', icon: '✎' },
  checklist: { name: 'Checklist', icon: '☑' },
  counter: { name: 'Counter', icon: '±' },
  stat: { name: 'Stat', icon: 'Σ' },
  chart: { name: 'Chart', icon: '▥' },
  timer: { name: 'Timer', icon: '◷' },
  divider: { name: 'Divider', icon: '—' },
  link: { name: 'Link', icon: '↗' },
  ai: { name: 'AI', icon: '✦' },
};

export const STEP_LABELS: Record<StepType, string> = {
  navigate: 'Go to a screen',
  back: 'Go back',
  createRecord: 'Create a record',
  updateRecord: 'Update the record',
  deleteRecord: 'Delete the record',
  setField: 'Set a field',
  openUrl: 'Open a web address',
  toast: 'Show a message',
  runAi: 'Run an AI action',
};

export const FIELD_TYPE_LABELS: Record<FieldType, string> = {
  text: 'Text',
  longText: 'Long text',
  number: 'Number',
  boolean: 'Yes / no',
  date: 'Date',
  select: 'Choice',
  url: 'Web address',
  email: 'Email',
  multiChoice: 'Choices (tags)',
  rating: 'Rating',
  currency: 'Money',
  duration: 'Duration',
  dateTime: 'Date and time',
  formula: 'Formula',
  relation: 'Link to records',
  rollup: 'Rollup of links',
  image: 'Photo',
  file: 'File',
  person: 'Person (assigned to)',
};

/** Labels of component and step properties, by key. */
const PROP_LABELS: Record<string, string> = {
  text: 'Text',
  level: 'Size',
  markdown: 'Text (Markdown)',
  src: 'Image address',
  alt: 'Description for screen readers',
  fit: 'Fit',
  label: 'Label',
  actionId: 'Action to run',
  style: 'Style',
  collectionId: 'Collection',
  titleFieldId: 'Title field',
  subtitleFieldId: 'Subtitle field',
  filter: 'Filter',
  sort: 'Sort',
  emptyText: 'Text when empty',
  detailScreenId: 'Tapping an item opens',
  view: 'Show as',
  columnFieldIds: 'Table columns',
  groupFieldId: 'Board columns by',
  dateFieldId: 'Date field',
  imageFieldId: 'Picture field',
  addScreenId: 'Tapping a day opens',
  search: 'Visitors can search and filter',
  fieldIds: 'Fields',
  mode: 'Mode',
  submitLabel: 'Submit button label',
  checkFieldId: 'Checkbox field',
  step: 'Step',
  aggregate: 'Calculation',
  fieldId: 'Field',
  kind: 'Chart type',
  labelFieldId: 'Label field',
  valueFieldId: 'Value field',
  seconds: 'Seconds',
  url: 'Web address',
  aiActionId: 'AI action',
  screenId: 'Screen',
  values: 'Values',
  value: 'Value',
  message: 'Message',
};

export function propLabel(key: string): string {
  if (PROP_LABELS[key]) return PROP_LABELS[key];
  const words = key.replace(/([A-Z])/g, ' $1').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const OPTION_LABELS: Record<string, Record<string, string>> = {
  level: { '1': 'Large', '2': 'Medium', '3': 'Small' },
  aggregate: { count: 'Count', sum: 'Sum', average: 'Average', min: 'Minimum', max: 'Maximum' },
  op: {
    equals: 'is',
    notEquals: 'is not',
    contains: 'contains',
    greaterThan: 'is more than',
    lessThan: 'is less than',
    isTrue: 'is yes',
    isFalse: 'is no',
    isEmpty: 'is empty',
    isNotEmpty: 'is not empty',
  },
  direction: { asc: 'Ascending', desc: 'Descending' },
  view: { list: 'List', table: 'Table', board: 'Board', calendar: 'Calendar', gallery: 'Gallery' },
};

export function optionLabel(key: string, value: string | number): string {
  const known = OPTION_LABELS[key]?.[String(value)];
  if (known) return known;
  const text = String(value);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A row's name in the tree: the type, and what it says when it says something. */
export function componentSummary(component: ReadComponent): { name: string; detail: string } {
  if (component.type === 'invalid') {
    return { name: 'Unreadable component', detail: component.originalType };
  }
  const name = COMPONENT_LABELS[component.type].name;
  const props = component.props as Record<string, unknown>;
  const detail = [props.text, props.label, props.markdown, props.alt].find(
    (value): value is string => typeof value === 'string' && value.trim() !== '',
  );
  return { name, detail: detail ? detail.trim().slice(0, 60) : '' };
}
