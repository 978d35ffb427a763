import {
  type AiAction,
  addAiAction,
  LIMITS,
  removeAiAction,
  setAiAction,
} from '@pipit/app-definition';
import { Button } from '../../ui/button';
import { SelectField } from '../../ui/field';
import { ConfirmDeleteButton } from './confirm-delete-button';
import { DraftText } from './draft-fields';
import { newId, useEditor } from './editor-context';
import { nameProblem } from './validation';

/** AI actions: a prompt template, what it returns, and where the result goes. */
export function AiActionsEditor() {
  const { definition, handle, readOnly } = useEditor();
  const aiActions = definition.aiActions;
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
      <p className="editor-muted">
        Run by the server’s AI provider when the operator configured one; otherwise the app says “AI
        is not configured on this server”.
      </p>
      {aiActions.map((ai) => (
        <AiActionEditor key={ai.id} ai={ai} />
      ))}
    </section>
  );
}

function AiActionEditor({ ai }: { ai: AiAction }) {
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
      <SelectField
        label="It returns"
        value={ai.output.kind === 'text' ? 'text' : `record:${ai.output.collectionId ?? ''}`}
        disabled={readOnly}
        onChange={(e) => {
          const v = e.target.value;
          set({
            output:
              v === 'text'
                ? { kind: 'text' }
                : { kind: 'record', collectionId: v.slice(7) || null },
          });
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
          set({
            target:
              v === 'component'
                ? { kind: 'component' }
                : v.startsWith('field:')
                  ? { kind: 'field', fieldId: v.slice(6) || null }
                  : { kind: 'createRecord', collectionId: v.slice(7) || null },
          });
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
