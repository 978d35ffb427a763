import { CheckProblem, type FieldLookup, type TypedNode, typeOf } from './checker';
import { likelyMeant } from './closest';
import { parseFormula } from './parser';
import {
  fieldsForFormulas,
  type RelationCollection,
  type RelationField,
} from '../schema/relations';
import { fieldReference } from './printer';
import {
  type FormulaError,
  type FormulaField,
  type FormulaNode,
  type FormulaType,
  formulaTypeOf,
} from './types';

/** A formula field that can be computed. */
export interface CompiledFormula {
  fieldId: string;
  type: FormulaType;
  /** The ids of the fields it uses, each once, in the order they first appear. */
  references: string[];
  ast: FormulaNode;
  /** The checked tree the evaluation walks. */
  tree: TypedNode;
}

export interface CompiledFormulas {
  /** The formula fields that can be computed, each after the formula fields it uses. */
  order: CompiledFormula[];
  /** Why each other formula field can't be computed, by field id. */
  errors: Record<string, FormulaError>;
}

/** `checkFormula`'s answer: the formula's type and the fields it uses, or its first problem. */
export type FormulaCheck =
  | { ok: true; type: FormulaType; references: string[]; ast: FormulaNode }
  | { ok: false; error: FormulaError };

/** How many field names an unknown field's message lists, closest first. */
const LISTED_NAMES = 6;

/** The field a reference names: its exact name first, else the same name trimmed, in any case. */
export function findField<F extends Pick<FormulaField, 'name'>>(
  fields: readonly F[],
  name: string,
): F | undefined {
  const exact = fields.find((field) => field.name === name);
  if (exact) return exact;
  const wanted = name.trim().toLowerCase();
  return fields.find((field) => field.name.trim().toLowerCase() === wanted);
}

/**
 * "Unknown field {Prise}. Fields here: Price, Quantity.": the name it most likely meant first,
 * then the others in their order, so the list reads as the collection does.
 */
function unknownField(name: string, fields: readonly FormulaField[], selfId: string): string {
  const names = fields.filter((field) => field.id !== selfId).map((field) => field.name);
  const reference = fieldReference(name);
  if (names.length === 0)
    return `Unknown field ${reference}: this collection has no other fields yet.`;
  const meant = likelyMeant(name, names);
  const ordered = meant === null ? names : [meant, ...names.filter((other) => other !== meant)];
  const shown = ordered.slice(0, LISTED_NAMES);
  const more = names.length - shown.length;
  return `Unknown field ${reference}. Fields here: ${shown.join(', ')}${more > 0 ? `, and ${more} more` : ''}.`;
}

/** The field references of a tree, in reading order. */
function fieldNodes(node: FormulaNode, into: Array<FormulaNode & { kind: 'field' }> = []) {
  if (node.kind === 'field') into.push(node);
  if (node.kind === 'negate') fieldNodes(node.operand, into);
  if (node.kind === 'binary') {
    fieldNodes(node.left, into);
    fieldNodes(node.right, into);
  }
  if (node.kind === 'call') for (const arg of node.args) fieldNodes(arg, into);
  return into;
}

/** A formula field on its way through the compilation. */
interface Entry {
  field: FormulaField;
  ast: FormulaNode | null;
  /** The formula fields it uses, with the first reference to each. */
  uses: Map<string, FormulaNode>;
}

function parseEntries(fields: readonly FormulaField[], errors: Record<string, FormulaError>) {
  const entries = new Map<string, Entry>();
  for (const field of fields) {
    if (field.type !== 'formula' || entries.has(field.id)) continue;
    const parsed = parseFormula(field.formula ?? '');
    const entry: Entry = { field, ast: parsed.ok ? parsed.ast : null, uses: new Map() };
    if (!parsed.ok) errors[field.id] = parsed.error;
    entries.set(field.id, entry);
  }
  for (const entry of entries.values()) {
    for (const node of entry.ast ? fieldNodes(entry.ast) : []) {
      const used = findField(fields, node.name);
      if (used && entries.has(used.id) && !entry.uses.has(used.id)) entry.uses.set(used.id, node);
    }
  }
  return entries;
}

/** Every formula field reachable from `start` in one step or more. */
function reachable(entries: ReadonlyMap<string, Entry>, start: string): Set<string> {
  const seen = new Set<string>();
  const queue = [...(entries.get(start)?.uses.keys() ?? [])];
  while (queue.length > 0) {
    const id = queue.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    queue.push(...(entries.get(id)?.uses.keys() ?? []));
  }
  return seen;
}

function cycleMessage(names: readonly string[]): string {
  const refs = names.map(fieldReference);
  if (refs.length === 1) return `${refs[0]} refers to itself, so it can’t be computed.`;
  if (refs.length === 2)
    return `${refs[0]} and ${refs[1]} refer to each other, so neither can be computed.`;
  const list = `${refs.slice(0, -1).join(', ')} and ${refs.at(-1)}`;
  return `${list} refer to each other in a loop, so none of them can be computed.`;
}

/**
 * The formula fields that refer to themselves through others (or directly), each with its error:
 * the loop's fields by name, pointing at its own reference into the loop.
 */
function findCycles(entries: ReadonlyMap<string, Entry>, errors: Record<string, FormulaError>) {
  const reach = new Map([...entries.keys()].map((id) => [id, reachable(entries, id)]));
  const cyclic = new Set<string>();
  for (const [id, entry] of entries) {
    if (!reach.get(id)?.has(id)) continue;
    cyclic.add(id);
    const loop = [...entries.keys()].filter(
      (other) => reach.get(id)?.has(other) && reach.get(other)?.has(id),
    );
    const into = [...entry.uses].find(([used]) => loop.includes(used))?.[1] as FormulaNode;
    const names = loop.map((other) => (entries.get(other) as Entry).field.name);
    errors[id] = { message: cycleMessage(names), start: into.start, end: into.end };
  }
  return cyclic;
}

/** The fields outside any loop, each after the formula fields it uses (Kahn's algorithm). */
function dependencyOrder(
  entries: ReadonlyMap<string, Entry>,
  cyclic: ReadonlySet<string>,
): Entry[] {
  const order: Entry[] = [];
  const placed = new Set<string>();
  const waiting = [...entries.values()].filter((entry) => !cyclic.has(entry.field.id));
  while (waiting.length > 0) {
    const ready = waiting.findIndex((entry) =>
      [...entry.uses.keys()].every((used) => placed.has(used) || cyclic.has(used)),
    );
    // Outside the loops nothing waits on itself, so some entry is always ready.
    const [entry] = waiting.splice(ready, 1) as [Entry];
    placed.add(entry.field.id);
    order.push(entry);
  }
  return order;
}

function lookupFor(
  fields: readonly FormulaField[],
  self: FormulaField,
  compiled: ReadonlyMap<string, CompiledFormula>,
): FieldLookup {
  return (name) => {
    const field = findField(fields, name);
    if (!field) return { problem: unknownField(name, fields, self.id) };
    const stored = formulaTypeOf(field.type);
    if (stored !== null) return { id: field.id, type: stored, stored: true };
    const done = compiled.get(field.id);
    if (done) return { id: field.id, type: done.type, stored: false };
    if (field.type === 'rollup')
      return {
        problem: `${fieldReference(field.name)} can’t be worked out: fix its settings first.`,
      };
    return { problem: `${fieldReference(field.name)} has a problem of its own: fix it first.` };
  };
}

function compileEntry(
  entry: Entry & { ast: FormulaNode },
  lookup: FieldLookup,
): CompiledFormula | FormulaError {
  try {
    const tree = typeOf(entry.ast, lookup);
    const references: string[] = [];
    for (const node of fieldNodes(entry.ast)) {
      const used = lookup(node.name);
      if ('id' in used && !references.includes(used.id)) references.push(used.id);
    }
    return { fieldId: entry.field.id, type: tree.type, references, ast: entry.ast, tree };
  } catch (error) {
    if (error instanceof CheckProblem) return error.problem;
    throw error;
  }
}

/**
 * Every formula field of a collection checked, in an order where each comes after the formula
 * fields it uses: ready to evaluate for any record. A field that cannot be computed (a syntax or
 * type problem, a field that no longer exists, a loop of formulas referring to each other, or a
 * formula it uses that has a problem) gets its error instead.
 */
export function compileCollectionFormulas(fields: readonly FormulaField[]): CompiledFormulas {
  const errors: Record<string, FormulaError> = {};
  const entries = parseEntries(fields, errors);
  const cyclic = findCycles(entries, errors);
  const compiled = new Map<string, CompiledFormula>();
  const order: CompiledFormula[] = [];
  for (const entry of dependencyOrder(entries, cyclic)) {
    if (!entry.ast) continue;
    const result = compileEntry(
      { ...entry, ast: entry.ast },
      lookupFor(fields, entry.field, compiled),
    );
    if ('tree' in result) {
      compiled.set(entry.field.id, result);
      order.push(result);
    } else {
      errors[entry.field.id] = result;
    }
  }
  return { order, errors };
}

/**
 * A collection's formula fields compiled among the app's collections: its rollups reach formulas as
 * the type of value they give.
 */
export function compileFormulasOf<F extends FormulaField & RelationField>(
  collections: readonly RelationCollection<F>[],
  collection: RelationCollection<F>,
): CompiledFormulas {
  return compileCollectionFormulas(fieldsForFormulas(collections, collection));
}

/** An id no field has, for a formula that is not (yet) a field's. */
function draftId(fields: readonly FormulaField[]): string {
  let id = 'draft-formula';
  while (fields.some((field) => field.id === id)) id = `${id}'`;
  return id;
}

/**
 * A formula's type and the fields it uses, or its first problem with the characters it is about.
 * `fieldId` is the formula field this text is for, if any: its stored formula is replaced by this
 * one, so a formula that would refer to itself, directly or through others, is caught as it is
 * typed.
 */
export function checkFormula(
  source: string,
  fields: readonly FormulaField[],
  options: { fieldId?: string } = {},
): FormulaCheck {
  const id = options.fieldId ?? draftId(fields);
  const draft: FormulaField = { id, name: '', type: 'formula', formula: source };
  const withDraft = fields.some((field) => field.id === id)
    ? fields.map((field) =>
        field.id === id ? { ...field, type: 'formula', formula: source } : field,
      )
    : [...fields, draft];
  const { order, errors } = compileCollectionFormulas(withDraft);
  const error = errors[id];
  if (error) return { ok: false, error };
  const done = order.find((formula) => formula.fieldId === id) as CompiledFormula;
  return { ok: true, type: done.type, references: done.references, ast: done.ast };
}
