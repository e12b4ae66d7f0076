// One field from its spec and its zod schema: the schema gives the type (an enum becomes a
// select, a boolean a switch, a number a number box), the choices, the bounds, whether it is
// required and the hint; the spec may name a richer control.
import type { z } from 'zod';
import type { FieldSpec, Widget } from '../../kinds/field-spec.ts';
import { fieldInfo, schemaAt, type FieldInfo } from './zod-field.ts';
import { getIn, segmentsOf } from './form-values.ts';
import { DurationField, NumberField, SelectField, TextField, ToggleField } from './basic-fields.tsx';
import { ChipsField, stringItem } from './list-fields.tsx';
import { KeyValueField, textItem } from './key-value-field.tsx';
import { ExpressionField, JsonField } from './code-fields.tsx';
import { exitMappingItem, formatExitMapping } from './exit-codes.ts';
import type { ExpressionScope } from './scope.ts';

export interface FieldContext {
  scope: ExpressionScope;
  /** Ids of the other steps (compensation, join branches). */
  stepIds: string[];
  /** Pools named in limits.concurrency. */
  resources: string[];
  commit(path: string, value: unknown): string | null;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const strList = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.map(String) : undefined);
const numList = (v: unknown): number[] | undefined => (Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : undefined);
const record = (v: unknown): Record<string, unknown> | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v)) : undefined);
const strRecord = (v: unknown): Record<string, string> | undefined => {
  const r = record(v);
  return r === undefined ? undefined : Object.fromEntries(Object.entries(r).map(([k, x]) => [k, String(x)]));
};

function inferred(info: FieldInfo): Widget {
  switch (info.type) {
    case 'enum':
      return 'select';
    case 'boolean':
      return 'toggle';
    case 'number':
      return 'number';
    case 'string':
      return 'text';
    case 'array':
      return 'chips';
    case 'record':
      return 'kv-text';
    default:
      return 'json';
  }
}

const statusItem = (text: string): { ok: true; item: number } | { ok: false; error: string } =>
  /^[1-5]\d\d$/.test(text) ? { ok: true, item: Number(text) } : { ok: false, error: `"${text}" is not an HTTP status (100–599)` };

export function AutoField({ spec, schema, element, ctx }: { spec: FieldSpec; schema: z.core.$ZodType; element: Record<string, unknown>; ctx: FieldContext }) {
  const segments = segmentsOf(spec.path);
  const at = schemaAt(schema, segments);
  const info: FieldInfo = at === null ? { type: 'other', optional: true, description: undefined, options: [], min: undefined, max: undefined, integer: false } : fieldInfo(at);
  const value = getIn(element, segments);
  if (spec.show !== undefined && value === undefined && !spec.show(element)) return null;
  const widget = spec.widget ?? inferred(info);
  const common = { path: spec.path, label: spec.label, hint: spec.hint ?? info.description, optional: info.optional, onCommit: (v: unknown) => ctx.commit(spec.path, v) };
  const placeholder = spec.placeholder === undefined ? {} : { placeholder: spec.placeholder };
  switch (widget) {
    case 'text':
    case 'mono':
    case 'multiline':
      return <TextField {...common} {...placeholder} value={str(value)} mono={widget === 'mono'} multiline={widget === 'multiline'} />;
    case 'template':
    case 'template-multiline':
    case 'jsonata':
    case 'jsonata-multiline':
      return <ExpressionField {...common} value={str(value)} mode={widget.startsWith('template') ? 'template' : 'jsonata'} multiline={widget.endsWith('multiline')} scope={ctx.scope} />;
    case 'json':
    case 'json-schema':
      return <JsonField {...common} value={value} mode={widget} />;
    case 'number':
      return <NumberField {...common} {...placeholder} value={num(value)} min={info.min} max={info.max} step={info.integer ? 1 : 0.1} />;
    case 'duration':
      return <DurationField {...common} {...placeholder} value={num(value)} />;
    case 'select':
      return <SelectField {...common} value={str(value)} options={info.options} unsetLabel={spec.unset ?? '— default —'} />;
    case 'toggle':
      return <ToggleField {...common} value={value === true ? true : value === false ? false : undefined} />;
    case 'chips':
    case 'ordered-chips':
      return <ChipsField {...common} value={strList(value)} parse={stringItem} ordered={widget === 'ordered-chips'} />;
    case 'status-chips':
      return <ChipsField {...common} value={numList(value)} parse={statusItem} placeholder="200" />;
    case 'step-chips':
      return <ChipsField {...common} value={strList(value)} parse={stringItem} suggestions={ctx.stepIds} placeholder="step id" />;
    case 'kv-text':
    case 'kv-template':
      return <KeyValueField {...common} value={strRecord(value)} parse={textItem} format={String} mono={widget === 'kv-text'} valuePlaceholder={widget === 'kv-template' ? 'text with {{ }}' : 'value'} />;
    case 'exit-codes':
      return (
        <KeyValueField
          {...common}
          value={record(value)}
          parse={exitMappingItem}
          format={formatExitMapping}
          keyPlaceholder="exit code"
          valuePlaceholder="failed:E_CODE"
          hint="one row per exit code: succeeded, failed, unknown, or failed:ERROR_CODE"
        />
      );
    case 'step-select':
      return <SelectField {...common} value={str(value)} options={ctx.stepIds} unsetLabel="— none —" />;
    case 'resource':
      return <TextField {...common} {...placeholder} value={str(value)} mono suggestions={ctx.resources} placeholder={ctx.resources.length > 0 ? ctx.resources.join(', ') : 'a pool from limits.concurrency'} />;
  }
}
