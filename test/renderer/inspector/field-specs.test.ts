import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ADVANCED_FIELDS, DATA_FIELDS, EFFECT_FIELDS, RELIABILITY_FIELDS, REVALIDATE_FIELDS } from '../../../renderer/editor/inspector/field-specs.ts';
import { configFields } from '../../../renderer/kinds/kind-views.ts';
import { schemaAt } from '../../../renderer/editor/inspector/zod-field.ts';
import { segmentsOf } from '../../../renderer/editor/inspector/form-values.ts';
import { sectionOf } from '../../../renderer/editor/inspector/focus-target.ts';
import { exitMappingItem, formatExitMapping } from '../../../renderer/editor/inspector/exit-codes.ts';
import { Step } from '../../../shared/definition/workflow-schema.ts';
import { STEP_KINDS } from '../../../shared/definition/names.ts';

const schemaOf = (kind: string) => {
  const s = Step.options.find((o) => o.shape.kind.value === kind);
  if (s === undefined) throw new Error(kind);
  return s;
};

/** Leaf keys of a kind's config schema, as form paths (`config.workflow.id`); mock replies are one JSON field. */
function configKeys(kind: string): string[] {
  const out: string[] = [];
  const walk = (prefix: string[]): void => {
    let inner = schemaAt(schemaOf(kind), prefix);
    while (inner instanceof z.ZodOptional) inner = inner.unwrap();
    if (!(inner instanceof z.ZodObject) || prefix.at(-1) === 'mock') return void out.push(prefix.join('.'));
    for (const key of Object.keys(inner.shape)) walk([...prefix, key]);
  };
  walk(['config']);
  return out.filter((p) => p !== 'config');
}

describe('config forms', () => {
  it.each(STEP_KINDS)('%s: every config field of the schema has a control, and every control a schema field', (kind) => {
    const specs = configFields(kind).map((s) => s.path);
    for (const path of specs) expect(schemaAt(schemaOf(kind), segmentsOf(path)), path).not.toBeNull();
    expect([...specs].sort()).toEqual(configKeys(kind).sort());
  });

  it('the common step fields resolve in every kind and sit in the section a problem opens', () => {
    const sections: Array<[string, typeof DATA_FIELDS]> = [
      ['data', DATA_FIELDS],
      ['reliability', RELIABILITY_FIELDS],
      ['revalidation', REVALIDATE_FIELDS],
      ['effect', EFFECT_FIELDS],
      ['advanced', ADVANCED_FIELDS],
    ];
    for (const [section, specs] of sections) {
      for (const spec of specs) {
        for (const kind of STEP_KINDS) expect(schemaAt(schemaOf(kind), segmentsOf(spec.path)), `${kind} ${spec.path}`).not.toBeNull();
        expect(sectionOf('step', spec.path.split('.')[0] ?? ''), spec.path).toBe(section);
      }
    }
  });
});

describe('exit code rows', () => {
  it.each([
    ['failed', { outcome: 'failed' }],
    ['failed:E_DIRTY', { outcome: 'failed', code: 'E_DIRTY' }],
    [' unknown ', { outcome: 'unknown' }],
    ['succeeded:', { outcome: 'succeeded' }],
  ])('%j', (text, item) => {
    expect(exitMappingItem(text)).toEqual({ ok: true, item });
    expect(exitMappingItem(formatExitMapping(item))).toEqual({ ok: true, item });
  });

  it('refuses an outcome a command cannot have', () => {
    expect(exitMappingItem('timed_out')).toEqual({ ok: false, error: expect.stringContaining('"timed_out"') });
  });
});
