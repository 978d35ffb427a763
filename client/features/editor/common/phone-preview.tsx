import type { AppDefinition, ReadDefinition } from '@pipit/app-definition';
import { AppScreen } from '@pipit/runtime';
import { useState } from 'react';
import { SelectField } from '../../../ui/field';
import './changes.css';

/** A definition drawn as the app would look, read-only, one screen at a time. */
export function PhonePreview({
  definition,
  label,
}: {
  definition: ReadDefinition | AppDefinition;
  label: string;
}) {
  const [chosen, setScreenId] = useState<string | null>(null);
  const screenId = definition.screens.some((s) => s.id === chosen)
    ? chosen!
    : (definition.screens[0]?.id ?? '');
  return (
    <>
      <SelectField label="Screen" value={screenId} onChange={(e) => setScreenId(e.target.value)}>
        {definition.screens.map((s) => (
          <option key={s.id} value={s.id}>
            {s.title}
          </option>
        ))}
      </SelectField>
      <div className="phone-frame phone-preview">
        <div
          className="phone-frame__screen phone-preview__screen"
          role="region"
          aria-label={label}
          tabIndex={0}
        >
          <AppScreen
            definition={definition}
            screenId={screenId}
            colorMode={definition.theme.mode === 'dark' ? 'dark' : 'light'}
            onNavigate={setScreenId}
          />
        </div>
      </div>
    </>
  );
}
