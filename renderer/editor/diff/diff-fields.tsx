// Under a change of the version diff: each field that differs, its value before and after, so
// "step approve: config" reads as what changed (config.title "Approve" → "Approve refund"). Long
// values are cut in the list and whole in their hover text; many fields show the first few.
import type { JsonValue } from '../../../shared/api/json-value.ts';
import type { FieldChange } from './diff-model.ts';

/** Fields shown under one change; the rest are counted. */
const MAX_FIELDS = 8;
/** Longest value shown inline. */
const MAX_SHOWN = 160;

const shown = (v: JsonValue | undefined): string => {
  if (v === undefined) return 'not set';
  const text = JSON.stringify(v);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
};

export function DiffFields({ fields, onClick }: { fields: readonly FieldChange[]; onClick(): void }) {
  if (fields.length === 0) return null;
  const more = fields.length - MAX_FIELDS;
  return (
    // The entry's button above is the control; a click here is a larger target for the mouse.
    <dl className="diff-fields" data-testid="diff-fields" onClick={onClick}>
      {fields.slice(0, MAX_FIELDS).map((f) => (
        <div key={f.path} className="diff-field" data-testid="diff-field" data-path={f.path}>
          <dt className="mono">{f.path}</dt>
          <dd className="diff-old mono" data-absent={f.a === undefined || undefined} title={f.a === undefined ? undefined : JSON.stringify(f.a)} data-testid="diff-old">
            <span className="diff-sign" aria-label="was">−</span> {shown(f.a)}
          </dd>
          <dd className="diff-new mono" data-absent={f.b === undefined || undefined} title={f.b === undefined ? undefined : JSON.stringify(f.b)} data-testid="diff-new">
            <span className="diff-sign" aria-label="now">+</span> {shown(f.b)}
          </dd>
        </div>
      ))}
      {more > 0 ? (
        <div className="diff-field faint" data-testid="diff-fields-more">
          and {more} more field{more === 1 ? '' : 's'}
        </div>
      ) : null}
    </dl>
  );
}
