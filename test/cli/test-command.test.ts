// `weft test FILE [SCENARIO_FILE...]`: which scenarios go with which workflow (files after it, a
// NAME.scenarios.json or NAME.scenarios/ folder beside it), and clear errors for bad input.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { weftInProcess as inProcess } from './capture-io.ts';
import { REPO_ROOT, runWeft } from './run-weft.ts';

const examples = join(import.meta.dirname, '..', '..', 'examples');
const all = JSON.parse(readFileSync(join(examples, 'order-payment.scenarios.json'), 'utf8')) as { scenarios: { name: string; expect: unknown }[] };

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'weft-test-cmd-'));
  cpSync(join(examples, 'order-payment.weft.json'), join(dir, 'order-payment.weft.json'));
  return dir;
}
const file = (dir: string, name: string, scenarios: unknown[]): string => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ scenarios }));
  return path;
};

const weftInProcess = (args: readonly string[]) => inProcess(args, REPO_ROOT);

describe('weft test', () => {
  it('runs the scenario files given after a workflow, whatever their names', async () => {
    const dir = workspace();
    const a = file(dir, 'happy.scenarios.json', all.scenarios.slice(0, 2));
    const b = file(dir, 'refusals.scenarios.json', all.scenarios.slice(2, 3));
    const r = await runWeft(['test', join(dir, 'order-payment.weft.json'), a, b]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('order-payment.weft.json: 3/3 scenarios passed');
  });

  it('finds NAME.scenarios.json and the files of a NAME.scenarios/ folder beside the workflow', async () => {
    const dir = workspace();
    file(dir, 'order-payment.scenarios.json', all.scenarios.slice(0, 1));
    mkdirSync(join(dir, 'order-payment.scenarios'));
    file(join(dir, 'order-payment.scenarios'), 'one.json', all.scenarios.slice(1, 2));
    file(join(dir, 'order-payment.scenarios'), 'two.json', all.scenarios.slice(2, 4));
    const byFile = await weftInProcess(['test', join(dir, 'order-payment.weft.json')]);
    expect(byFile.code).toBe(0);
    expect(byFile.stdout).toContain('4/4 scenarios passed');
    const byDir = await weftInProcess(['test', dir]);
    expect(byDir.stdout).toContain('4/4 scenarios passed');
    const byFolder = await weftInProcess(['test', join(dir, 'order-payment.scenarios')]);
    expect(byFolder.stdout).toContain('3/3 scenarios passed');
  });

  it('fails a scenario that names a step or edge the workflow does not have, saying which', async () => {
    const dir = workspace();
    const base = all.scenarios[0] as Record<string, unknown>;
    file(dir, 'order-payment.scenarios.json', [{ ...base, name: 'typos', steps: { crate_order: [{ succeed: {} }] }, expect: { state: 'succeeded', path: ['payment_recieved'] } }]);
    const r = await weftInProcess(['test', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('steps names step "crate_order": expected "a step of \\"order-payment\\": create_order,');
    expect(r.stdout).toContain('got "no such step"');
    expect(r.stdout).toContain('expect.path names edge "payment_recieved"');
  });

  it('refuses a missing path, a workflow without scenarios and an invalid scenario file with exit 2', async () => {
    const dir = workspace();
    const missing = await weftInProcess(['test', join(dir, 'nope.weft.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('does not exist');
    const none = await weftInProcess(['test', join(dir, 'order-payment.weft.json')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no scenarios for order-payment.weft.json: give scenario files after it, or put them in order-payment.scenarios.json or a order-payment.scenarios/ folder beside it');
    file(dir, 'order-payment.scenarios.json', [{ name: 'bad crash', expect: {}, crash: { afterEvent: 'attempt_begun' } }]);
    const bad = await weftInProcess(['test', dir]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/order-payment\.scenarios\.json: scenarios\.0\.crash\.afterEvent: .*attempt_started/);
    const partly = await weftInProcess(['test', join(examples, 'agent-escalation.weft.json'), join(dir, 'gone.scenarios.json')]);
    expect(partly.code).toBe(2);
  });

  it('takes any *.json after a workflow that holds scenarios as its scenarios (docs/scenarios.md: weft test WORKFLOW extra.json)', async () => {
    const dir = workspace();
    file(dir, 'order-payment.scenarios.json', all.scenarios.slice(0, 1));
    const extra = file(dir, 'extra.json', all.scenarios.slice(1, 3));
    const r = await runWeft(['test', join(dir, 'order-payment.weft.json'), extra]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // The files given, not the ones beside it: extra.json's two scenarios.
    expect(r.stdout).toContain('order-payment.weft.json: 2/2 scenarios passed');
    // On its own, with a "workflow" key, it tests that workflow.
    writeFileSync(extra, JSON.stringify({ workflow: 'order-payment.weft.json', scenarios: all.scenarios.slice(1, 3) }));
    const alone = await weftInProcess(['test', extra]);
    expect(alone.stderr).toBe('');
    expect(alone.stdout).toContain('order-payment.weft.json: 2/2 scenarios passed');
    // A workflow after a workflow stays a second workflow, whatever its name.
    cpSync(join(examples, 'agent-escalation.weft.json'), join(dir, 'second.json'));
    const two = await weftInProcess(['test', join(dir, 'order-payment.weft.json'), extra, join(dir, 'second.json'), join(examples, 'agent-escalation.scenarios.json')]);
    expect(two.stderr).toBe('');
    expect(two.stdout).toContain('order-payment.weft.json: 2/2 scenarios passed');
    expect(two.stdout).toMatch(/second\.json: \d+\/\d+ scenarios passed/);
  });

  it('refuses a *.json that is neither a workflow nor scenarios, and scenarios with no workflow, naming the file and what it expected', async () => {
    const dir = workspace();
    writeFileSync(join(dir, 'notes.json'), JSON.stringify({ title: 'not a test' }));
    const neither = await weftInProcess(['test', join(dir, 'order-payment.weft.json'), join(dir, 'notes.json')]);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain(`weft test: ${join(dir, 'notes.json')} is neither a workflow (a weft/v1 definition with "steps") nor a scenarios file ({"scenarios": [...]}, docs/scenarios.md): it has no "scenarios" list, nor "steps" or "format"`);
    writeFileSync(join(dir, 'broken.json'), '{"scenarios": [');
    const broken = await weftInProcess(['test', join(dir, 'order-payment.weft.json'), join(dir, 'broken.json')]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`${join(dir, 'broken.json')} is neither a workflow`);
    expect(broken.stderr).toContain('it cannot be read as JSON');
    const orphan = file(dir, 'orphan.json', all.scenarios.slice(0, 1));
    const alone = await weftInProcess(['test', orphan]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain(`weft test: ${orphan} holds scenarios, and no workflow comes before it nor does it name one: give the workflow first (weft test NAME.weft.json orphan.json), or name it in the file's "workflow" key`);
  });
});

describe('weft test: the scenario language of forks, several runs and single attempts', () => {
  const paid = all.scenarios[0] as Record<string, unknown>;

  it('--json --events adds each scenario\'s event log (every run, in the order written); --json alone leaves it out', async () => {
    const dir = workspace();
    file(dir, 'order-payment.scenarios.json', [{ ...paid, name: 'two orders', runs: [{ name: 'second', atMs: 1000, input: paid.input }], expect: { state: 'succeeded', runs: { second: { state: 'failed', path: ['payment_timeout'] } } } }]);
    const plain = await weftInProcess(['test', dir, '--json']);
    expect(plain.code).toBe(0);
    const without = JSON.parse(plain.stdout) as { workflows: { scenarios: Record<string, unknown>[] }[] };
    expect(without.workflows[0]?.scenarios[0]).not.toHaveProperty('events');
    const r = await weftInProcess(['test', dir, '--json', '--events']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { workflows: { scenarios: { name: string; runs: { name: string; runId: string }[]; events: { runId: string; seq: number; type: string }[] }[] }[] };
    const s = report.workflows[0]?.scenarios[0];
    expect(s?.runs.map((x) => x.name)).toEqual(['main', 'second']);
    expect(s?.events[0]).toMatchObject({ runId: s?.runs[0]?.runId, seq: 1, type: 'run_created' });
    expect(new Set(s?.events.map((e) => e.runId))).toEqual(new Set(s?.runs.map((x) => x.runId)));
    const events = await weftInProcess(['test', dir, '--events']);
    expect(events.code).toBe(2);
    expect(events.stderr).toContain('--events needs --json');
  });

  it('a failed assertion on one attempt prints what, expected and actual, and exits 1', async () => {
    const dir = workspace();
    cpSync(join(examples, 'agent-escalation.weft.json'), join(dir, 'agent-escalation.weft.json'));
    const good = { decision: 'refund', amount: 49.9, confidence: 0.9, rationale: 'No delivery scan after 14 days.' };
    file(dir, 'agent-escalation.scenarios.json', [{
      name: 'the second attempt is said to use the fallback model',
      input: { ticketId: 'T-1', customerMessage: 'lost', orderTotal: 49.9, currency: 'EUR' },
      steps: { propose: [{ cases: [{ when: 'variant = 1', then: { succeed: good } }], else: { fail: 'http_503' } }] },
      decisions: [{ step: 'approve', atMs: 3600000, decision: 'approve' }],
      expect: { state: 'succeeded', attempts: [{ step: 'propose', attempt: 2, variant: 1, error: 'http_503' }] },
    }]);
    const r = await weftInProcess(['test', join(dir, 'agent-escalation.weft.json')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('retry variant of attempt 1.2 of "propose": expected 1, got 0');
    expect(r.stdout).not.toContain('error code of attempt 1.2');
  });

  it('refuses a scenario file with a fork that has no "from", an unknown run or a bad "when", with exit 2 and the JSON path', async () => {
    const dir = workspace();
    file(dir, 'order-payment.scenarios.json', [{ ...paid, operator: [{ atMs: 0, action: 'fork', name: 'again' }] }]);
    const fork = await weftInProcess(['test', dir]);
    expect(fork.code).toBe(2);
    expect(fork.stderr).toContain('order-payment.scenarios.json: scenarios.0.operator.0.from: a fork needs "from": the first step to run again');
    file(dir, 'order-payment.scenarios.json', [{ ...paid, decisions: [{ step: 'payment_review', atMs: 0, decision: 'approve', run: 'other' }] }]);
    const run = await weftInProcess(['test', dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('scenarios.0.decisions.0.run: no run named "other" in this scenario; its runs are main');
    file(dir, 'order-payment.scenarios.json', [{ ...paid, steps: { fulfil: [{ cases: [{ when: 'input.(', then: { succeed: {} } }] }] } }]);
    const when = await weftInProcess(['test', dir]);
    expect(when.code).toBe(2);
    expect(when.stderr).toMatch(/scenarios\.0\.steps\.fulfil\.0/);
  });
});
