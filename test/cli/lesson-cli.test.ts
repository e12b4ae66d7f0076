// weft lesson through the real binary on a real store and workspace: a lesson recorded from a run
// lands in NAME.lessons.json beside the workflow file (created, then appended to), weft lesson list
// reads it back; an unknown step, run or workflow and blank texts are refused (exit 2); a lessons
// file that does not parse is named with its place and fix, and is never written over.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overrideEnv } from '../env-override.ts';
import { LessonsFile } from '../../shared/lessons/lessons-schema.ts';
import { runWeft } from './run-weft.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-cli-lesson-'));
const db = join(dir, 'store.db');
const restoreEnv = overrideEnv({ WEFT_CONFIG_DIR: join(dir, 'config'), WEFT_USER: 'ops-default' });
afterAll(() => restoreEnv());
const lessons = join(dir, 'quote.lessons.json');
writeFileSync(join(dir, 'quote.weft.json'), JSON.stringify({
  format: 'weft/v1', id: 'quote', version: 1, name: 'Quote',
  steps: [{ id: 'price', kind: 'transform', config: { expression: '{"cents": 250}' } }, { id: 'send', kind: 'transform', config: { expression: '{"sent": true}' } }, { id: 'finish', kind: 'end' }],
  edges: [{ id: 'e1', from: 'price', to: 'send' }, { id: 'e2', from: 'send', to: 'finish' }],
}));

let runId = '';
beforeAll(async () => {
  const r = await runWeft(['run', 'quote.weft.json', '--db', db, '--json'], dir);
  expect(r.code).toBe(0);
  runId = (JSON.parse(r.stdout) as { runId: string }).runId;
});

const weft = (args: string[]) => runWeft([...args], dir);

describe('weft lesson', () => {
  it('records lessons beside the workflow and lists them', async () => {
    const none = await weft(['lesson', 'list', 'quote']);
    expect(none).toMatchObject({ code: 0, stdout: 'no lessons recorded for quote (quote.lessons.json would hold them)\n' });
    const first = await weft(['lesson', 'add', runId.slice(0, 6), '--db', db, '--steps', 'price', '--failure-mode', 'the price table was a day old', '--changed', 'price reads the table of the quote date']);
    expect(first.stderr).toBe('');
    expect(first).toMatchObject({ code: 0, stdout: `lesson L1 recorded in quote.lessons.json (steps price; from run ${runId})\n` });
    const second = await weft(['lesson', 'add', runId, '--db', db, '--steps', 'price, send', '--failure-mode', 'a quote went out twice', '--changed', 'send is idempotent by quote id', '--by', 'ana', '--json']);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ file: 'quote.lessons.json', lesson: { id: 'L2', steps: ['price', 'send'], by: 'ana', runId } });
    const file = LessonsFile.parse(JSON.parse(readFileSync(lessons, 'utf8')));
    expect(file.workflow).toBe('quote');
    expect(file.lessons.map((l) => [l.id, l.by, l.failureMode])).toEqual([['L1', 'ops-default', 'the price table was a day old'], ['L2', 'ana', 'a quote went out twice']]);
    const listed = await weft(['lesson', 'list', 'quote']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^L1 {2}\d{4}-\d\d-\d\d by ops-default {2}steps: price {2}run: \S+\n {4}failure mode: the price table was a day old\n {4}changed: {6}price reads the table of the quote date\n/);
    expect(JSON.parse((await weft(['lesson', 'list', 'quote', '--json'])).stdout).lessons).toHaveLength(2);
  });

  it('refuses an unknown step, run or workflow, and blank texts, writing nothing', async () => {
    const before = readFileSync(lessons, 'utf8');
    const step = await weft(['lesson', 'add', runId, '--db', db, '--steps', 'price,nope', '--failure-mode', 'x', '--changed', 'y']);
    expect(step.code).toBe(2);
    expect(step.stderr).toContain('workflow "quote" (quote.weft.json) has no step "nope"; its steps are price, send, finish');
    const blank = await weft(['lesson', 'add', runId, '--db', db, '--steps', 'price', '--failure-mode', ' ', '--changed', 'y']);
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain('$.failureMode: must not be empty or only spaces');
    const run = await weft(['lesson', 'add', 'zzzz', '--db', db, '--steps', 'price', '--failure-mode', 'x', '--changed', 'y']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('zzzz');
    const workflow = await weft(['lesson', 'list', 'nope']);
    expect(workflow.code).toBe(2);
    expect(workflow.stderr).toContain('no workflow with id "nope"');
    const usage = await weft(['lesson', 'add', runId, '--db', db, '--failure-mode', 'x', '--changed', 'y']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--steps STEP[,STEP…] is required');
    expect(readFileSync(lessons, 'utf8')).toBe(before);
  });

  it('names the place and the fix of a broken lessons file, and never writes over it', async () => {
    const broken = '{\n  "format": "weft-lessons/v1",\n  "workflow": "quote",\n  "lessons": [\n    { "id": "L1", "failureMode": "x" \n  ]\n}\n';
    writeFileSync(lessons, broken);
    const listed = await weft(['lesson', 'list', 'quote']);
    expect(listed.code).toBe(2);
    expect(listed.stderr).toMatch(/quote\.lessons\.json: not valid JSON at line 6, column \d+: .+; /);
    const added = await weft(['lesson', 'add', runId, '--db', db, '--steps', 'price', '--failure-mode', 'x', '--changed', 'y']);
    expect(added.code).toBe(2);
    expect(added.stderr).toContain('the file was left as it is and no lesson was recorded');
    expect(readFileSync(lessons, 'utf8')).toBe(broken);
    writeFileSync(lessons, JSON.stringify({ format: 'weft-lessons/v1', workflow: 'quote', lessons: [{ id: 'L1', failureMode: 'x', changed: 'y', runId, steps: [], by: 'ana', at: '2026-12-03T10:00:00.000Z' }] }));
    const schema = await weft(['lesson', 'list', 'quote']);
    expect(schema.code).toBe(2);
    expect(schema.stderr).toContain('quote.lessons.json: $.lessons[0].steps: name at least one step the lesson concerns');
  });
});
