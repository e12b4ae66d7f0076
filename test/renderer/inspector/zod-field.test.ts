import { describe, expect, it } from 'vitest';
import { fieldInfo, schemaAt } from '../../../renderer/editor/inspector/zod-field.ts';
import { AgentConfig, HttpConfig, JoinConfig, MapConfig } from '../../../shared/definition/step-config.ts';
import { Step } from '../../../shared/definition/workflow-schema.ts';

const at = (root: Parameters<typeof schemaAt>[0], path: Parameters<typeof schemaAt>[1]) => {
  const s = schemaAt(root, path);
  if (s === null) throw new Error(`no schema at ${path.join('.')}`);
  return fieldInfo(s);
};

describe('fieldInfo', () => {
  it('reads enums as choices, with required-ness', () => {
    expect(at(HttpConfig, ['method'])).toMatchObject({ type: 'enum', optional: false, options: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] });
    expect(at(JoinConfig, ['onFailedBranch'])).toMatchObject({ type: 'enum', optional: true, options: ['fail', 'ignore'] });
  });

  it('reads number bounds and whole-number-ness through refinements', () => {
    expect(at(AgentConfig, ['temperature'])).toMatchObject({ type: 'number', optional: true, min: 0, max: 2, integer: false });
    expect(at(AgentConfig, ['maxTokens'])).toMatchObject({ type: 'number', integer: true });
  });

  it('takes descriptions from the schema', () => {
    expect(at(HttpConfig, ['body']).description).toBe('JSONata expression giving the JSON body');
    expect(at(JoinConfig, ['branches'])).toMatchObject({ type: 'array', description: 'step ids a subset join waits for' });
  });

  it('walks nested objects', () => {
    expect(at(MapConfig, ['workflow', 'version'])).toMatchObject({ type: 'number', optional: false, integer: true });
    const http = Step.options.find((o) => o.shape.kind.value === 'http');
    if (http === undefined) throw new Error('no http step');
    expect(at(http, ['retry', 'jitter'])).toMatchObject({ type: 'number', min: 0, max: 1, description: 'fraction of the interval to randomise' });
    expect(at(http, ['optional'])).toMatchObject({ type: 'boolean', optional: true });
    expect(schemaAt(http, ['config', 'nope'])).toBeNull();
  });
});
