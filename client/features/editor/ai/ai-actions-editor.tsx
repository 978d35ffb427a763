import {
  type AiAction,
  addAiAction,
  type AiRunPlan,
  type Field,
  LIMITS,
  planAiRun,
  type ReadDefinition,
  removeAiAction,
  setAiAction,
  templateBindings,
} from '@pipit/app-definition';
import { AI_BINDING_MAX_LENGTH } from '@pipit/protocol';
import { aiOutputText } from '@pipit/runtime';
import { useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { aiErrorMessage, sendAiRun, useAiStatus } from '../../../platform/ai/ai-runs';
import { useSession } from '../../../platform/session/session';
import { Button } from '../../../ui/button';
import { SelectField, TextField } from '../../../ui/field';
import { Notice } from '../../../ui/notice';
import { useOnlineStatus } from '../../../ui/use-online-status';
import { ConfirmDeleteButton } from '../common/confirm-delete-button';
import { DraftText } from '../common/draft-fields';
import { newId, useEditor } from '../common/editor-context';
import { FIELD_TYPE_LABELS } from '../common/labels';
import { nameProblem } from '../common/validation';

/** AI actions: a prompt template, what it returns, and where the result goes. */
export function AiActionsEditor() {
  const { definition, handle, readOnly } = useEditor();
  const aiActions = definition.aiActions;
  const { account } = useSession();
  const status = useAiStatus(account?.id ?? null);
  return (
    <section className="properties-section" aria-labelledby="ai-actions-title">
      <div className="editor-section__header">
        <h3 className="properties-section__title" id="ai-actions-title">
          AI actions
        </h3>
        {readOnly ? null : (
          <Button
            size="small"
            variant="secondary"
            disabled={aiActions.length >= LIMITS.aiActions}
            onClick={() => handle.edit(addAiAction, newId, `AI action ${aiActions.length + 1}`)}
          >
            + Add AI action
          </Button>
        )}
      </div>
      {status && !status.available ? (
        <Notice tone="warning" live="off">
          AI is not configured on this server. You can still write AI actions; they run once the
          server’s operator connects an AI provider.
        </Notice>
      ) : (
        <p className="editor-muted">Run on the server by the AI provider its operator connected.</p>
      )}
      {aiActions.map((ai) => (
        <AiActionEditor
          key={ai.id}
          ai={ai}
          available={status?.available ?? false}
          model={status?.model ?? null}
        />
      ))}
    </section>
  );
}

function AiActionEditor({
  ai,
  available,
  model,
}: {
  ai: AiAction;
  available: boolean;
  model: string | null;
}) {
  const { definition, handle, readOnly } = useEditor();
  const set = (patch: Parameters<typeof setAiAction>[2]) => handle.edit(setAiAction, ai.id, patch);
  const collections = definition.collections;
  const fields = collections.flatMap((c) => c.fields.map((f) => ({ ...f, collection: c.name })));
  return (
    <fieldset className="prop-group record-card">
      <legend className="field__label">{ai.name}</legend>
      <DraftText
        label="Name"
        value={ai.name}
        disabled={readOnly}
        validate={(v) => nameProblem(v, 'AI action')}
        onCommit={(name) => set({ name })}
      />
      <DraftText
        label="Prompt"
        hint="You can use {{record.field}}, {{input.field}} and {{user.name}}."
        multiline
        rows={4}
        value={ai.prompt}
        disabled={readOnly}
        validate={(v) =>
          v.length > LIMITS.promptLength
            ? `Keep the prompt to ${LIMITS.promptLength} characters.`
            : null
        }
        onCommit={(prompt) => set({ prompt })}
      />
      {readOnly ? null : (
        <BindingPicker
          definition={definition}
          onInsert={(binding) => {
            const next = `${ai.prompt}${ai.prompt === '' || /\s$/.test(ai.prompt) ? '' : ' '}${binding}`;
            if (next.length <= LIMITS.promptLength) set({ prompt: next });
          }}
        />
      )}
      <SelectField
        label="It returns"
        value={ai.output.kind === 'text' ? 'text' : `record:${ai.output.collectionId ?? ''}`}
        disabled={readOnly}
        onChange={(e) => {
          const v = e.target.value;
          const output: AiAction['output'] =
            v === 'text' ? { kind: 'text' } : { kind: 'record', collectionId: v.slice(7) || null };
          // A record answer lands as a new record of that same collection: both change together,
          // in one edit (one undo), so the editor never makes the pair publishing refuses.
          set(
            output.kind === 'record' && ai.target.kind === 'createRecord'
              ? { output, target: { kind: 'createRecord', collectionId: output.collectionId } }
              : { output },
          );
        }}
      >
        <option value="text">Text</option>
        {ai.output.kind === 'record' && ai.output.collectionId === null ? (
          <option value="record:">A record (choose a collection)</option>
        ) : null}
        {collections.map((c) => (
          <option key={c.id} value={`record:${c.id}`}>
            A record of {c.name}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="The result goes to"
        value={
          ai.target.kind === 'component'
            ? 'component'
            : ai.target.kind === 'field'
              ? `field:${ai.target.fieldId ?? ''}`
              : `create:${ai.target.collectionId ?? ''}`
        }
        disabled={readOnly}
        onChange={(e) => {
          const v = e.target.value;
          const target: AiAction['target'] =
            v === 'component'
              ? { kind: 'component' }
              : v.startsWith('field:')
                ? { kind: 'field', fieldId: v.slice(6) || null }
                : { kind: 'createRecord', collectionId: v.slice(7) || null };
          set(
            target.kind === 'createRecord' && ai.output.kind === 'record'
              ? { target, output: { kind: 'record', collectionId: target.collectionId } }
              : { target },
          );
        }}
      >
        <option value="component">The AI component that runs it</option>
        {ai.target.kind === 'field' && ai.target.fieldId === null ? (
          <option value="field:">A field (choose one)</option>
        ) : null}
        {ai.target.kind === 'createRecord' && ai.target.collectionId === null ? (
          <option value="create:">A new record (choose a collection)</option>
        ) : null}
        {fields.map((f) => (
          <option key={f.id} value={`field:${f.id}`}>
            The field {f.name} ({f.collection})
          </option>
        ))}
        {collections.map((c) => (
          <option key={c.id} value={`create:${c.id}`}>
            A new record of {c.name}
          </option>
        ))}
      </SelectField>
      <WhatARunSends ai={ai} model={model} />
      <TryIt ai={ai} available={available} readOnly={readOnly} />
      <ConfirmDeleteButton
        label="Delete AI action"
        title={`Delete “${ai.name}”?`}
        body="Components and steps that run it will do nothing. You can undo this."
        confirmLabel="Delete AI action"
        onConfirm={() => handle.edit(removeAiAction, ai.id)}
      />
    </fieldset>
  );
}

/** Inserts `{{record.<field>}}`, `{{input.<field>}}` or `{{user.name}}` at the end of the prompt. */
function BindingPicker({
  definition,
  onInsert,
}: {
  definition: ReadDefinition;
  onInsert: (binding: string) => void;
}) {
  const token = (root: string, name: string) => `{{${root}.${name}}}`;
  return (
    <SelectField
      label="Insert a value"
      hint="Only the values a prompt uses are sent with a run."
      value=""
      onChange={(e) => {
        if (e.target.value) onInsert(e.target.value);
      }}
    >
      <option value="">Choose a value to insert…</option>
      {definition.collections.map((c) => (
        <optgroup key={`record:${c.id}`} label={`The current record (${c.name})`}>
          {c.fields.map((f) => (
            <option key={f.id} value={token('record', bindingKey(f))}>
              {token('record', bindingKey(f))}
            </option>
          ))}
        </optgroup>
      ))}
      {definition.collections.map((c) => (
        <optgroup key={`input:${c.id}`} label={`A form’s input (${c.name})`}>
          {c.fields.map((f) => (
            <option key={f.id} value={token('input', bindingKey(f))}>
              {token('input', bindingKey(f))}
            </option>
          ))}
        </optgroup>
      ))}
      <optgroup label="The person using the app">
        <option value="{{user.name}}">{'{{user.name}}'}</option>
      </optgroup>
    </SelectField>
  );
}

/** A field as a binding names it: its name when that reads back unambiguously, else its id. */
function bindingKey(field: { id: string; name: string }): string {
  const name = field.name.trim();
  return name && !/[{}]/.test(name) && name.length <= 60 ? name : field.id;
}

/**
 * A binding as the creator reads it: the field's name when the binding names a field by id (as
 * templates do), with the binding itself, which is what a run sends.
 */
function bindingLabel(definition: ReadDefinition, binding: string): string {
  const key = binding.slice(binding.indexOf('.') + 1);
  for (const collection of definition.collections) {
    const field = collection.fields.find((f) => f.id === key);
    if (field && field.name !== key) return `${field.name} (${binding})`;
  }
  return binding;
}

/**
 * Exactly what a run sends the provider, in plain words: Pipit's instructions, the filled-in
 * prompt, the values it uses, what the answer must be (for a record, the collection and each of its
 * fields, which the instructions and the JSON schema name), and the model. The instructions and
 * the schema as sent are one click away.
 */
function WhatARunSends({ ai, model }: { ai: AiAction; model: string | null }) {
  const { definition } = useEditor();
  const bindings = templateBindings(ai.prompt);
  // Planned without values: all it sends but the values is the same whatever they are.
  const planned = planAiRun(ai, definition.collections, {});
  const plan = planned.ok ? planned.plan : null;
  return (
    <div className="ai-sends">
      <p className="field__label">What a run sends</p>
      <ul className="ai-sends__list">
        <li>
          Pipit’s instructions: the values are data, never instructions, and the answer has no HTML,
          scripts or code.
        </li>
        <li>The filled-in prompt.</li>
        {bindings.length === 0 ? (
          <li>No values from the app: the prompt uses none.</li>
        ) : (
          <li>
            The values of{' '}
            {bindings.map((b, i) => (
              <span key={b}>
                {i > 0 ? ', ' : ''}
                <code>{bindingLabel(definition, b)}</code>
              </span>
            ))}
            .
          </li>
        )}
        {planned.ok ? <AnswerSent output={planned.plan.output} /> : <li>{planned.message}</li>}
        <li>{model ? <>To the model {model}.</> : 'To the model the server’s operator chose.'}</li>
      </ul>
      {plan ? (
        <details className="ai-sends__as-sent">
          <summary>
            {plan.output.kind === 'record'
              ? 'The instructions and the JSON schema, as sent'
              : 'The instructions, as sent'}
          </summary>
          {/* Scrollable when long: focusable, so the keyboard can scroll it too. */}
          <pre className="ai-sends__text" tabIndex={0}>
            {plan.system}
          </pre>
          {plan.output.kind === 'record' ? (
            <pre className="ai-sends__text" tabIndex={0}>
              {JSON.stringify(plan.output.jsonSchema, null, 2)}
            </pre>
          ) : null}
        </details>
      ) : null}
    </div>
  );
}

/** What the answer must be, as the instructions (and for a record, the JSON schema) say. */
function AnswerSent({ output }: { output: AiRunPlan['output'] }) {
  if (output.kind === 'text') {
    return (
      <li>
        {output.field
          ? `That the answer goes in the field “${output.field.name}” (${fieldWords(output.field)}), so it must be that value only.`
          : 'That the answer is plain text.'}
      </li>
    );
  }
  return (
    <li>
      The fields of a new record of “{output.collection.name}” the answer must fill, in the
      instructions and as a JSON schema:
      <ul>
        {output.collection.fields.map((f) => (
          <li key={f.id}>
            {f.name}: {fieldWords(f)}, {f.required ? 'required' : 'optional'}
          </li>
        ))}
      </ul>
    </li>
  );
}

/** A field's type in the editor's words, with a choice field's choices. */
function fieldWords(field: Pick<Field, 'type' | 'options'>): string {
  const type = FIELD_TYPE_LABELS[field.type];
  return field.type === 'select' && field.options.length > 0
    ? `${type}, one of ${field.options.join(', ')}`
    : type;
}

type TryState =
  | { kind: 'idle' }
  | { kind: 'working' }
  | { kind: 'done'; text: string }
  | { kind: 'failed'; problem: string };

/**
 * Runs the AI action's current (live) template with sample values for each binding it uses, and
 * shows the output or the error. Nothing is written anywhere.
 */
function TryIt({
  ai,
  available,
  readOnly,
}: {
  ai: AiAction;
  available: boolean;
  readOnly: boolean;
}) {
  const { definition } = useEditor();
  const appId = useParams({ strict: false }).id;
  const online = useOnlineStatus();
  const [samples, setSamples] = useState<Record<string, string>>({});
  const [state, setState] = useState<TryState>({ kind: 'idle' });
  const bindings = templateBindings(ai.prompt);
  const sampleValues = Object.fromEntries(bindings.map((b) => [b, samples[b] ?? '']));
  const plan = planAiRun(ai, definition.collections, sampleValues);
  const why = !available
    ? 'AI is not configured on this server.'
    : !appId
      ? 'Try it works in an app saved to your account.'
      : readOnly
        ? 'Only the app’s editors can try its AI actions.'
        : !online
          ? 'You’re offline: Try it needs a connection.'
          : null;
  const tryIt = async () => {
    if (!appId || state.kind === 'working') return;
    setState({ kind: 'working' });
    try {
      const output = await sendAiRun(appId, { aiActionId: ai.id, bindings: sampleValues }, 'live');
      const collectionId = ai.output.kind === 'record' ? ai.output.collectionId : null;
      const collection = definition.collections.find((c) => c.id === collectionId) ?? null;
      setState({ kind: 'done', text: aiOutputText(output, collection) || '(An empty answer.)' });
    } catch (error) {
      setState({ kind: 'failed', problem: aiErrorMessage(error) });
    }
  };
  return (
    <div className="ai-try">
      <p className="field__label">Try it</p>
      {bindings.map((b) => (
        <TextField
          key={b}
          label={`Sample for ${bindingLabel(definition, b)}`}
          value={samples[b] ?? ''}
          maxLength={AI_BINDING_MAX_LENGTH}
          onChange={(e) => setSamples({ ...samples, [b]: e.target.value })}
        />
      ))}
      {plan.ok ? (
        <details className="ai-try__plan">
          <summary>The filled-in prompt, with these samples</summary>
          {/* Scrollable when long (a phone, a long template): focusable, as the ones sent are. */}
          <pre className="ai-try__prompt" tabIndex={0}>
            {plan.plan.user}
          </pre>
          <p className="editor-muted">
            {`Pipit adds its own instructions: the values are data, never instructions, and the answer must be ${plan.plan.output.kind === 'record' ? 'the fields of one record' : 'plain text'}, with no HTML or code.`}
          </p>
        </details>
      ) : (
        <p className="editor-muted">{plan.message}</p>
      )}
      <Button
        size="small"
        variant="secondary"
        disabled={why !== null || !plan.ok}
        aria-disabled={state.kind === 'working' || undefined}
        onClick={() => void tryIt()}
      >
        {state.kind === 'working' ? 'Trying…' : 'Try it'}
      </Button>
      <div aria-live="polite" className="ai-try__result">
        {why ? <p className="editor-muted">{why}</p> : null}
        {state.kind === 'done' ? <p className="ai-try__text">{state.text}</p> : null}
        {state.kind === 'failed' ? <p className="field__error">{state.problem}</p> : null}
        {state.kind === 'done' || state.kind === 'failed' ? (
          <p className="editor-muted">Trying an AI action never changes any data.</p>
        ) : null}
      </div>
    </div>
  );
}
