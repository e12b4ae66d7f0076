// What `weft diff` finds and prints for each kind of change, and for several at once in either
// direction, through main() in this process (test/cli/capture-io.ts): the same argv, exit code,
// stdout and stderr as the binary, without a process start per call. The binary's own contract
// (exit codes, the store, what cannot be compared, usage) is tested in diff-cli.test.ts.
import { describe, expect, it } from 'vitest';
import { weftInProcess } from './capture-io.ts';
import { diffFiles, hello, parseDiff, type Raw } from './diff-workflows.ts';

const { dir, file, changed } = diffFiles();
const weft = (args: readonly string[]) => weftInProcess(args, dir);

const A = file(hello());

describe.concurrent('weft diff of two files, in-process', () => {
  // Each kind of change: what is done to B, the part of the JSON it must show in, and its line.
  const kinds: [string, (w: Raw) => void, Record<string, unknown>, string][] = [
    ['a step added', (w) => w.steps.push({ id: 'notify', kind: 'http', config: { method: 'POST', url: 'https://example.test/n' } }), { steps: { added: ['notify'] } }, '+ step notify (http)'],
    ['a step removed', (w) => {
      w.steps = w.steps.filter((s) => s['id'] !== 'shout');
      w.edges = [{ id: 'e1', from: 'hi', to: 'done' }];
    }, { steps: { removed: ['shout'] } }, '- step shout (transform)'],
    ['a step changed', (w) => Object.assign(w.steps[1] ?? {}, { config: { expression: '"HEY"' }, retry: { maxAttempts: 2 } }), { steps: { changed: [{ id: 'shout', parts: ['config', 'retry'] }] } }, '~ step shout: config, retry'],
    ['an edge added', (w) => w.edges.push({ id: 'skip', from: 'hi', to: 'done', on: 'failed' }), { edges: { added: ['skip'] } }, '+ edge skip: hi→done'],
    ['an edge removed', (w) => {
      w.edges = w.edges.filter((e) => e['id'] !== 'e2');
    }, { edges: { removed: ['e2'] } }, '- edge e2: shout→done'],
    ['an edge rerouted', (w) => Object.assign(w.edges[0] ?? {}, { to: 'done' }), { edges: { changed: [{ id: 'e1', parts: ['rerouted'] }] } }, '~ edge e1: rerouted hi→shout ⇒ hi→done'],
    ['an edge renamed', (w) => Object.assign(w.edges[1] ?? {}, { id: 'shout_done' }), { edges: { renamed: [{ was: 'e2', id: 'shout_done', parts: [] }] } }, '~ edge e2 renamed to shout_done: shout→done'],
    ['a workflow part', (w) => Object.assign(w, { description: 'greets', limits: { maxParallelRuns: 1 } }), { workflow: { changed: ['description', 'limits'] } }, '~ workflow: description, limits'],
    ['the layout alone', (w) => Object.assign(w, { layout: { hi: { x: 0, y: 40 } } }), { layoutOnly: true, layout: { moved: ['hi', 'shout', 'done'] } }, 'layout: 3 steps moved'],
  ];
  it.each(kinds)('exits 1 for %s, and --json has it', async (_name, change, expected, line) => {
    const B = changed(change);
    const [text, json] = await Promise.all([weft(['diff', A, B]), weft(['diff', '--json', A, B])]);
    expect(text.code).toBe(1);
    expect(text.stderr).toBe('');
    expect(text.stdout.split('\n')).toContain(line);
    expect(json.code).toBe(1);
    expect(json.stderr).toBe('');
    const diff = parseDiff(json.stdout);
    expect(diff).toMatchObject({ same: false, ...expected });
    if (expected['layoutOnly'] !== true) expect(diff.layoutOnly).toBe(false);
  });

  it('prints every change in one run, and the same lines whichever file is given first, mirrored', async () => {
    const B = changed((w) => {
      w.steps.push({ id: 'notify', kind: 'http', config: { method: 'POST', url: 'https://example.test/n' } });
      w.edges.push({ id: 'e3', from: 'done', to: 'notify' });
    });
    const forward = await weft(['diff', A, B]);
    const back = await weft(['diff', B, A]);
    expect(forward).toEqual({ code: 1, stderr: '', stdout: '+ step notify (http)\n~ step done: edges\n+ edge e3: done→notify\n' });
    expect(back).toEqual({ code: 1, stderr: '', stdout: '- step notify (http)\n~ step done: edges\n- edge e3: done→notify\n' });
  });

});
