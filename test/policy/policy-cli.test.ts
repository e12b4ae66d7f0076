// The policy at the command line, in-process on real files and a real SQLite store: `weft
// validate` adds the findings of the folder's weft.policy.json, `weft policy show|check` prints
// the policy and checks every workflow (exit 0 kept, 1 broken, 2 unreadable policy), `weft run`
// refuses a definition that breaks the policy before it creates a store, and `weft inspect` names
// the policy a run started under.
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { weftInProcess } from '../cli/capture-io.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'policy');
let dir = '';

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'weft-policy-cli-'));
  copyFileSync(join(fixtures, 'weft.policy.json'), join(dir, 'weft.policy.json'));
  copyFileSync(join(fixtures, 'policy_approval_missing.good.weft.json'), join(dir, 'payments.weft.json'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const weft = (args: readonly string[]) => weftInProcess(args, dir);
const breakIt = (): void => copyFileSync(join(fixtures, 'policy_approval_missing.bad.weft.json'), join(dir, 'payments.weft.json'));

describe('weft validate with a workspace policy', () => {
  it('is valid when the workflow keeps the policy, and exits 1 naming the rule and step when it does not', async () => {
    expect((await weft(['validate', 'payments.weft.json'])).code).toBe(0);
    breakIt();
    const r = await weft(['validate', 'payments.weft.json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('payments.weft.json: charge: policy_approval_missing: policy "payments-approved": step "charge" can be reached without a person\'s approval');
    const json = JSON.parse((await weft(['validate', 'payments.weft.json', '--json'])).stdout) as { files: { valid: boolean; diagnostics: { code: string; path: string }[] }[] };
    expect(json.files[0]?.valid).toBe(false);
    expect(json.files[0]?.diagnostics).toContainEqual(expect.objectContaining({ code: 'policy_approval_missing', path: '$.steps[2]' }));
  });

  it('reports a policy file that does not parse as a finding, with its line', async () => {
    writeFileSync(join(dir, 'weft.policy.json'), '{\n  "format": "weft-policy/v1",\n  "retries": [{"id": "Bad Id", "maxAttempts": 2}]\n}\n');
    const r = await weft(['validate', 'payments.weft.json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('policy-file-invalid');
    expect(r.stdout).toContain('a rule id is a slug');
  });
});

describe('weft policy', () => {
  it('show prints the policy in force, and --json its file, hash and rules', async () => {
    const r = await weft(['policy']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^policy [0-9a-f]{16} \(/);
    expect(r.stdout).toContain('approval    payments-approved: effects external and tags payment need a person\'s approval on every path before them');
    expect(r.stdout).toContain('forbid      no-auto-retry-payments: automatic_retry of tags payment');
    const json = JSON.parse((await weft(['policy', 'show', '--json'])).stdout) as { file: string; hash: string; policy: { approvals: { id: string }[] } };
    expect(json.file).toBe(join(dir, 'weft.policy.json'));
    expect(json.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(json.policy.approvals[0]?.id).toBe('payments-approved');
  });

  it('without a policy file, show says none applies and check passes', async () => {
    rmSync(join(dir, 'weft.policy.json'));
    const show = await weft(['policy', 'show', '--json']);
    expect(JSON.parse(show.stdout)).toMatchObject({ hash: null, policy: null });
    expect((await weft(['policy', 'check'])).code).toBe(0);
  });

  it('check exits 0 when every workflow keeps the policy, 1 when one breaks it, 2 when the policy cannot be read', async () => {
    const ok = await weft(['policy', 'check', dir]);
    expect(ok.stdout).toContain('payments.weft.json: valid');
    expect(ok.code).toBe(0);
    breakIt();
    const broken = await weft(['policy', 'check', '--json']);
    expect(broken.code).toBe(1);
    const report = JSON.parse(broken.stdout) as { files: { file: string; valid: boolean; diagnostics: { code: string; stepId: string }[] }[] };
    expect(report.files[0]).toMatchObject({ valid: false, diagnostics: [{ code: 'policy_approval_missing', stepId: 'charge' }] });
    writeFileSync(join(dir, 'weft.policy.json'), '{"format": "weft-policy/v1", "forbid": [{"id": "x", "action": "teleport"}]}');
    const unreadable = await weft(['policy', 'check']);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toContain('weft.policy.json is not valid');
    expect(unreadable.stderr).toContain('$.forbid[0].action');
  });

  it('refuses a usage error', async () => {
    expect((await weft(['policy', 'check', 'a', 'b'])).code).toBe(2);
  });
});

describe('weft run and weft inspect under a policy', () => {
  it('refuses to start a definition that breaks the policy, naming rule and step, and creates no store', async () => {
    breakIt();
    const db = join(dir, 'runs.db');
    const r = await weft(['run', 'payments.weft.json', '--db', db, '--input', '{"orderId": "A1", "amount": 5}']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('workflow "payments" v1 breaks the workspace policy, so it does not start: policy "payments-approved": step "charge"');
    expect(existsSync(db)).toBe(false);
  });

  it('starts one that keeps it, and inspect shows the policy hash and rule ids', async () => {
    const db = join(dir, 'runs.db');
    const r = await weft(['run', 'payments.weft.json', '--db', db, '--input', '{"orderId": "A1", "amount": 5}', '--json']);
    expect(r.code).toBe(3); // waiting for the approval
    const { runId } = JSON.parse(r.stdout) as { runId: string };
    const hash = (JSON.parse((await weft(['policy', 'show', '--json'])).stdout) as { hash: string }).hash;
    const text = await weft(['inspect', runId, '--db', db]);
    expect(text.stdout).toContain(`Policy: ${hash} (approvals payments-approved; retries few-external-retries; forbid no-auto-retry-payments; agents approved-models)`);
    const json = JSON.parse((await weft(['inspect', runId, '--db', db, '--json'])).stdout) as { run: { policy: { hash: string } } };
    expect(json.run.policy.hash).toBe(hash);
  });
});
