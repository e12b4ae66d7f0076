// What the app bench opens, made once and not timed: the examples as shipped (the workflows
// list), and a workspace holding a runnable 1,000-step workflow with a run of it that the real
// engine took to its end (`weft run`): the generator's order workflow (generate-workflow.ts),
// with the steps a bench cannot finish unattended made plain transforms (a script needs its
// module, an approval a person), and a last check before the end that fails when the run's input
// says so. The failed run opens on that check: the step detail shows, and Retry is permitted
// (each retry is one more failing attempt of it, so one run serves every round).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Edge, Step, Workflow } from '../../shared/definition/workflow-schema.ts';
import type { Workspace } from '../e2e/weft-serve.ts';
import { benchWorkspace } from './bench-workspace.ts';
import { generateWorkflow } from './generate-workflow.ts';

export const BIG_STEPS = 1_000;
/** The step the big run fails at (the last before its end). */
export const FAILING_STEP = 'final_check';

export interface AppRuns {
  ws: Workspace;
  workflowId: string;
  steps: number;
  edges: number;
  /** The run that ended failed at FAILING_STEP, after every step on its path ran. */
  failedRun: string;
  /** A failed run of SMALL_STEPS steps (the whole graph in view at its opening zoom), for Retry. */
  smallFailedRun: string;
  /** Seconds `weft run` took. */
  madeInS: number;
}

/** The generator's workflow, with every step runnable by the engine alone and exactly `steps` of them. */
export function runnableWorkflow(steps: number): Workflow {
  // The approvals' shared `rejected` end goes (their rejection edges with it) and FAILING_STEP comes: one in, one out.
  const { workflow } = generateWorkflow({ steps, seed: 1 });
  const plain = (step: Step, expression: string): Step => ({ id: step.id, kind: 'transform', ...(step.output === undefined ? {} : { output: step.output }), config: { expression } });
  const kept: Step[] = [];
  for (const step of workflow.steps) {
    if (step.id === 'rejected') continue;
    if (step.kind === 'script') kept.push(plain(step, '{ "total": 42, "status": "in stock" }'));
    else if (step.kind === 'human') kept.push(plain(step, '{ "decision": "approved", "by": "bench" }'));
    else kept.push(step);
  }
  const toDone = workflow.edges.find((e) => e.to === 'done');
  if (toDone === undefined) throw new Error('app bench: the generated workflow has no edge into its end step');
  const edges: Edge[] = workflow.edges.filter((e) => e.to !== 'rejected' && e !== toDone);
  const done = kept.findIndex((s) => s.id === 'done');
  kept.splice(done, 0, {
    id: FAILING_STEP,
    kind: 'transform',
    config: { expression: 'input.fail = true ? $error("the order total does not match the invoice") : { "checked": true }' },
  });
  edges.push({ id: `${toDone.from}-${FAILING_STEP}`, from: toDone.from, to: FAILING_STEP }, { id: `${FAILING_STEP}-done`, from: FAILING_STEP, to: 'done' });
  const layout = { ...workflow.layout };
  const last = layout['done'];
  if (last !== undefined) {
    layout[FAILING_STEP] = last;
    layout['done'] = { x: last.x + 240, y: last.y };
  }
  delete layout['rejected'];
  const input = { type: 'object', properties: { orderId: { type: 'string' }, region: { type: 'string' }, fail: { type: 'boolean' } }, required: ['orderId', 'region'] };
  const runnable: Workflow = { ...workflow, id: `orders-${steps}`, name: `Orders, ${steps} steps`, input, steps: kept, edges, layout };
  if (runnable.steps.length !== steps) throw new Error(`app bench: the runnable workflow has ${runnable.steps.length} steps, not ${steps}`);
  return runnable;
}

export const SMALL_STEPS = 7;

/** A short chain ending in the same check: its graph fits the pane whole. */
function smallWorkflow(): Workflow {
  const names = ['receive', 'price', 'check_stock', 'invoice', 'notify'];
  const steps: Step[] = names.map((id) => ({ id, kind: 'transform', config: { expression: `{ "step": "${id}", "orderId": input.orderId }` } }));
  steps.push({ id: FAILING_STEP, kind: 'transform', config: { expression: 'input.fail = true ? $error("the order total does not match the invoice") : { "checked": true }' } }, { id: 'done', kind: 'end' });
  const edges: Edge[] = steps.slice(1).map((s, i) => ({ id: `${steps[i]?.id ?? ''}-${s.id}`, from: steps[i]?.id ?? '', to: s.id }));
  const input = { type: 'object', properties: { orderId: { type: 'string' }, fail: { type: 'boolean' } }, required: ['orderId'] };
  return { format: 'weft/v1', id: 'order-check', version: 1, name: 'Order check', input, steps, edges };
}

/** The workspace with the 1,000-step workflow and its failed run, made by `weft run`. */
export function appWorkspace(): AppRuns {
  const { root, ws, weft } = benchWorkspace('app');
  const dir = ws.dir;
  try {
    const workflow = runnableWorkflow(BIG_STEPS);
    const file = `${workflow.id}.weft.json`;
    writeFileSync(join(dir, file), `${JSON.stringify(workflow, null, 2)}\n`);
    const small = smallWorkflow();
    writeFileSync(join(dir, `${small.id}.weft.json`), `${JSON.stringify(small, null, 2)}\n`);
    writeFileSync(join(root, 'input.json'), JSON.stringify({ orderId: 'A-1001', region: 'eu', fail: true }));
    const failedRun = (name: string): string => {
      let out: string;
      try {
        out = weft(['run', name, '--json', '--input', `@${join(root, 'input.json')}`]);
      } catch (error) {
        // `weft run` exits 1 for a failed run; its JSON is still on stdout.
        const stdout = error !== null && typeof error === 'object' && 'stdout' in error ? String(error.stdout) : '';
        if (stdout === '') throw error;
        out = stdout;
      }
      const result = JSON.parse(out) as { runId: string; state: string };
      if (result.state !== 'failed') throw new Error(`app bench: the run of ${name} ended ${result.state}, not failed at ${FAILING_STEP}`);
      return result.runId;
    };
    const started = performance.now();
    const big = failedRun(file);
    const madeInS = (performance.now() - started) / 1000;
    return { ws, workflowId: workflow.id, steps: workflow.steps.length, edges: workflow.edges.length, failedRun: big, smallFailedRun: failedRun(`${small.id}.weft.json`), madeInS };
  } catch (error) {
    ws.remove();
    throw error;
  }
}
