import {
  type Action,
  addAction,
  addStep,
  LIMITS,
  moveStep,
  removeAction,
  removeStep,
  renameAction,
  setStepProps,
  type Step,
  STEP_PROPS,
  STEP_TYPES,
  type StepType,
} from '@pipit/app-definition';
import { useState } from 'react';
import { Button } from '../../../ui/button';
import { SelectField } from '../../../ui/field';
import { AiActionsEditor } from '../ai/ai-actions-editor';
import { DraftText } from '../common/draft-fields';
import { newId, useEditor } from '../common/editor-context';
import { STEP_LABELS } from '../common/labels';
import { PropFields } from './prop-fields';
import type { PropSchema } from './prop-schema';
import { SortableRows } from '../common/sortable-rows';
import { nameProblem } from '../common/validation';
import { Icon } from '../common/icons';
import { ChipPicker } from '../common/chip-picker';
import { ConfirmDeleteButton } from '../common/confirm-delete-button';

/** Actions (ordered steps that buttons and forms run) and AI actions. */
export function ActionsPanel() {
  const { definition, handle, readOnly } = useEditor();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const actions = definition.actions;
  const selected = actions.find((a) => a.id === selectedId) ?? actions[0] ?? null;
  return (
    <div className="properties-panel">
      <div className="editor-section__header">
        <h2 className="editor-section__title">Actions</h2>
        {readOnly ? null : (
          <Button
            size="small"
            variant="secondary"
            disabled={actions.length >= LIMITS.actions}
            onClick={() => {
              const id = handle.edit(addAction, newId, `Action ${actions.length + 1}`);
              if (id) setSelectedId(id);
            }}
          >
            + Add action
          </Button>
        )}
      </div>
      <ChipPicker
        label="Actions"
        items={actions}
        selectedId={selected?.id}
        onSelect={setSelectedId}
        empty="An action is a few steps a button or a form runs: go to a screen, create a record, show a message…"
      />
      {selected ? <ActionEditor key={selected.id} action={selected} /> : null}
      <AiActionsEditor />
    </div>
  );
}

function ActionEditor({ action }: { action: Action }) {
  const { handle, readOnly } = useEditor();
  const [newType, setNewType] = useState<StepType>('navigate');
  const [open, setOpen] = useState<string | null>(null);
  return (
    <div className="collection-editor">
      <DraftText
        label="Action name"
        value={action.name}
        disabled={readOnly}
        validate={(v) => nameProblem(v, 'action')}
        onCommit={(name) => handle.edit(renameAction, action.id, name)}
      />
      <ConfirmDeleteButton
        label="Delete action"
        title={`Delete “${action.name}”?`}
        body="Its steps go with it, and buttons and forms that run it will do nothing. You can undo this."
        confirmLabel="Delete action"
        onConfirm={() => handle.edit(removeAction, action.id)}
      />
      <section className="properties-section" aria-labelledby={`steps-${action.id}`}>
        <h3 className="properties-section__title" id={`steps-${action.id}`}>
          Steps
        </h3>
        {action.steps.length === 0 ? <p className="editor-muted">No steps yet.</p> : null}
        <SortableRows
          items={action.steps}
          label={`Steps of ${action.name}`}
          nameOf={(s) => `step ${action.steps.indexOf(s) + 1}, ${STEP_LABELS[s.type]}`}
          disabled={readOnly}
          onMove={(id, index) => handle.edit(moveStep, id, index)}
          renderItem={(step, index) => (
            <StepRow
              step={step}
              index={index}
              open={open === step.id}
              onToggle={() => setOpen(open === step.id ? null : step.id)}
            />
          )}
        />
        {readOnly ? null : (
          <div className="add-step">
            <SelectField
              label="New step"
              value={newType}
              onChange={(e) => setNewType(e.target.value as StepType)}
            >
              {STEP_TYPES.map((type) => (
                <option key={type} value={type}>
                  {STEP_LABELS[type]}
                </option>
              ))}
            </SelectField>
            <Button
              size="small"
              variant="secondary"
              disabled={action.steps.length >= LIMITS.stepsPerAction}
              onClick={() => {
                const id = handle.edit(addStep, newId, action.id, newType);
                if (id) setOpen(id);
              }}
            >
              + Add step
            </Button>
          </div>
        )}
      </section>
    </div>
  );
}

function StepRow({
  step,
  index,
  open,
  onToggle,
}: {
  step: Step;
  index: number;
  open: boolean;
  onToggle(): void;
}) {
  const { handle, readOnly } = useEditor();
  const shape = STEP_PROPS[step.type].shape as unknown as Record<string, PropSchema>;
  const hasProps = Object.keys(shape).length > 0;
  return (
    <div className="field-row">
      <div className="tree-row">
        <button
          type="button"
          className="tree-row__select"
          aria-expanded={hasProps ? open : undefined}
          onClick={hasProps ? onToggle : undefined}
        >
          <span className="tree-row__icon" aria-hidden="true">
            {index + 1}
          </span>
          <span className="tree-row__name">{STEP_LABELS[step.type]}</span>
        </button>
        {readOnly ? null : (
          <span className="tree-row__actions">
            <button
              type="button"
              className="icon-button icon-button--danger"
              aria-label={`Delete step ${index + 1}, ${STEP_LABELS[step.type]}`}
              title="Delete"
              onClick={() => handle.edit(removeStep, step.id)}
            >
              <Icon name="trash" />
            </button>
          </span>
        )}
      </div>
      {open && hasProps ? (
        <div className="field-editor">
          <PropFields
            key={step.id}
            shape={shape}
            values={step.props as Record<string, unknown>}
            templateFieldsFromCollection={step.type === 'createRecord'}
            onPatch={(patch) => handle.edit(setStepProps, step.id, patch)}
          />
        </div>
      ) : null}
    </div>
  );
}
