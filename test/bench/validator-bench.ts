// How long `weft validate` spends in parse + validate for workflows of 100 to 10,000 steps, and
// for a 10,000-step cycle (the worst case for cycle and path analysis). The diagnostics column
// shows the validator really ran: the generated workflows carry planted errors it should find.
import { createValidatorCaches, validateDefinitionText, type ValidatorCaches } from '../../shared/validator/validate-workflow.ts';
import { formatTable, median, type Benchmark } from './benchmark.ts';
import { generateRing, generateWorkflow } from './generate-workflow.ts';

interface Case {
  name: string;
  /** Reuse one set of parse caches across runs, as the editor does while a graph is edited. */
  warmCaches?: boolean;
  steps: number;
  text: string;
  /** Errors planted on purpose, or undefined when the case is not about planted errors. */
  planted?: number;
}

const RUNS = 7;
/** A size whose warm-up takes longer than this gets fewer timed runs, to keep the bench short. */
const SLOW_MS = 2_000;

export const benchmark: Benchmark = {
  name: 'validator',
  description: 'parse + validate (validateDefinitionText) on generated workflows',
  async run(print) {
    const cases: Case[] = [100, 1_000, 10_000].map((steps) => {
      const { workflow, planted } = generateWorkflow({ steps, seed: 1, flawEvery: 50 });
      return { name: 'generated', steps, planted, text: JSON.stringify(workflow, null, 2) };
    });
    const big = cases[cases.length - 1] as Case;
    cases.push({ ...big, name: 'generated, warm caches', warmCaches: true });
    cases.push({ name: 'ring, no maxTraversals', steps: 10_000, text: JSON.stringify(generateRing(10_000), null, 2) });

    const rows = [['case', 'steps', 'KiB', 'runs', 'median ms', 'ms/step', 'errors', 'warnings', 'planted']];
    for (const c of cases) rows.push(measure(c));
    for (const line of formatTable(rows)) print(line);
    print('median of timed runs after 1 warm-up, each with fresh parse caches unless "warm caches";');
    print('planted = undeclared output fields read on purpose (the validator should report each)');
  },
};

function measure(c: Case): string[] {
  const head = [c.name, c.steps.toLocaleString('en-US'), (c.text.length / 1024).toFixed(0)];
  try {
    const shared = createValidatorCaches();
    const caches = (): ValidatorCaches => (c.warmCaches ? shared : createValidatorCaches());
    const warmUp = time(c.text, caches());
    const runs = warmUp.ms > SLOW_MS * 3 ? 1 : warmUp.ms > SLOW_MS ? 3 : RUNS;
    const samples = Array.from({ length: runs }, () => time(c.text, caches()).ms);
    const ms = median(samples);
    const errors = warmUp.diagnostics.filter((d) => d.severity === 'error').length;
    return [
      ...head,
      String(runs),
      ms.toFixed(1),
      (ms / c.steps).toFixed(4),
      String(errors),
      String(warmUp.diagnostics.length - errors),
      c.planted === undefined ? '-' : String(c.planted),
    ];
  } catch (error) {
    // A crash (say, a recursive walk overflowing the stack) is a result worth printing, not hiding.
    return [...head, '-', `crashed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`];
  }
}

function time(
  text: string,
  caches: ValidatorCaches,
): { ms: number; diagnostics: ReturnType<typeof validateDefinitionText>['diagnostics'] } {
  const start = performance.now();
  const { diagnostics } = validateDefinitionText(text, caches);
  return { ms: performance.now() - start, diagnostics };
}
