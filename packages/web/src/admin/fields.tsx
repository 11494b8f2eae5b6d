/** Form controls shared by the upload form, the document filters and the collection panels. */
import type { ReactNode } from 'react';
import { useT } from '../lang-context.js';
import { DOCUMENT_TYPES } from './admin-api.js';

/** A label around its control; `id` is the control's id. */
export function Field(props: { id: string; label: string; children: ReactNode }) {
  return (
    <label className="field" htmlFor={props.id}>
      {props.label}
      {props.children}
    </label>
  );
}

/** One `<option>` per document type, "other" in the page's language. */
export function DocumentTypeOptions() {
  const { t } = useT();
  return (
    <>
      {DOCUMENT_TYPES.map((value) => (
        <option key={value} value={value}>
          {value === 'other' ? t('admin.upload.typeOther') : value}
        </option>
      ))}
    </>
  );
}

/** A fiscal year: a whole number from 1945 to 2100. */
export function YearInput(props: {
  id: string;
  testId: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <input
      id={props.id}
      data-testid={props.testId}
      type="number"
      inputMode="numeric"
      min={1945}
      max={2100}
      step={1}
      value={props.value}
      onChange={(event) => props.onChange(event.target.value)}
    />
  );
}

/** A collection's panel: which collection it shows, from the workspace's collections. */
export function CollectionSelect(props: {
  id: string;
  label: string;
  testId: string;
  collections: readonly string[];
  value: string;
  disabled?: boolean;
  onChange: (name: string) => void;
}) {
  return (
    <Field id={props.id} label={props.label}>
      <select
        id={props.id}
        data-testid={props.testId}
        value={props.value}
        disabled={props.disabled}
        onChange={(event) => props.onChange(event.target.value)}
      >
        {props.collections.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </Field>
  );
}
