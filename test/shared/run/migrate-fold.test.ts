// run_migrated in the fold and the views over a log: a prefix before the event folds on the old
// version and one after it on the new (time travel), the restart record names the change with
// its seq, and the app's timeline shows a `migrated` marker on the run's row at its moment.
import { describe, expect, it } from 'vitest';
import { Workflow } from '../../../shared/definition/workflow-schema.ts';
import { foldEvents, startDefinition } from '../../../shared/run/fold-events.ts';
import { restartRecord } from '../../../shared/run/restart-record.ts';
import { timeline } from '../../../shared/run/timeline.ts';
import { buildTimelineModel, RUN_ROW } from '../../../renderer/runs/timeline/timeline-model.ts';
import { LogWriter } from '../../renderer/timeline/synthetic-run.ts';

const v1 = Workflow.parse({
  format: 'weft/v1', id: 'w', version: 1, name: 'W',
  steps: [{ id: 'a', kind: 'transform', config: { expression: '1' } }, { id: 'ask', kind: 'human', config: { task: 'approve', title: 'ok?' } }, { id: 'done', kind: 'end' }],
  edges: [{ id: 'e1', from: 'a', to: 'ask' }, { id: 'e2', from: 'ask', to: 'done' }],
});
const v2 = Workflow.parse({
  ...v1, version: 2,
  steps: [...v1.steps, { id: 'note', kind: 'transform', config: { expression: '2' } }],
  edges: [{ id: 'e1', from: 'a', to: 'ask' }, { id: 'e2n', from: 'ask', to: 'note' }, { id: 'e3', from: 'note', to: 'done' }],
});

function log(): LogWriter {
  const w = new LogWriter();
  w.created(0);
  w.quickStep('a', 1, 1, 1);
  w.add('step_settled', 4, { outcome: 'succeeded', edges: [{ id: 'e1', taken: true, why: 'a succeeded' }] }, { step: 'a', activation: 1 });
  w.add('step_activated', 5, {}, { step: 'ask', activation: 1 });
  w.add('run_migrated', 50, { fromVersion: 1, toVersion: 2, definitionHash: 'h2', mapping: { a: 'a', ask: 'ask', done: 'done' }, decisions: {}, by: 'ann', definition: v2, fromDefinition: v1 }, { reason: 'migrated from version 1 to 2 by ann' });
  return w;
}

describe('run_migrated', () => {
  it('folds a prefix before it on the old version and the whole log on the new one', () => {
    const events = log().events;
    const before = foldEvents(v1, events.slice(0, events.length - 1));
    expect(before.workflow.version).toBe(1);
    expect(before.steps.has('note')).toBe(false);
    const after = foldEvents(v1, events);
    expect(after.workflow.version).toBe(2);
    expect(after.definitionHash).toBe('h2');
    expect(after.steps.get('note')?.state).toBe('blocked');
    expect(after.steps.get('ask')?.state).toBe('ready');
    expect(after.steps.get('a')?.output).toBe(1);
    expect([...after.edges.keys()]).toEqual(['e1']);
    expect(restartRecord(after).run).toMatchObject({ version: 2, migrations: [{ seq: 8, fromVersion: 1, toVersion: 2, by: 'ann' }] });
    expect(restartRecord(before).run.migrations).toBeUndefined();
    // Time travel holds only the latest version (v2): the log itself gives the one it starts on.
    expect(foldEvents(startDefinition(v2, events), events.slice(0, 5)).workflow.version).toBe(1);
    expect(startDefinition(v1, events.slice(0, 5))).toBe(v1);
  });

  it('throws, naming the event, for a log that migrates from a version the run is not on', () => {
    const w = log();
    const bad = w.events.map((e) => (e.type === 'run_migrated' ? { ...e, data: { ...e.data, fromVersion: 7 } } : e));
    expect(() => foldEvents(v1, bad)).toThrow(/run r1 event 8 \(run_migrated\) migrates from version 7, but the run is on version 1/);
  });

  it('shows a migrated marker on the run row of the timeline', () => {
    const events = log().events;
    const model = buildTimelineModel(timeline(events, 60), events);
    expect(model.markers.map((m) => [m.kind, m.rowKey, m.atMs, m.label])).toEqual([['migrated', RUN_ROW, 50, 'migrated from v1 to v2 by ann (migrated from version 1 to 2 by ann)']]);
  });
});
