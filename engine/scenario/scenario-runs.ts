// The runs of one scenario by name: its own run ("main"), the runs of `runs`, and forks. Each
// has its own script (a fork or an extra run may give one; otherwise the scenario's), and
// actions find their run by name when they fire.
import { MAIN_RUN } from '../../shared/scenario/scenario-runs-schema.ts';
import type { Script, ScriptedOutcome } from './scripted-executor.ts';

/** A script from a scenario's `steps`; a run's own `steps` replace the scripts of the steps they name in `base`. */
export const scriptOf = (steps: Record<string, ScriptedOutcome[]> | undefined, base: Script = new Map()): Script => new Map([...base, ...Object.entries(steps ?? {})]);

export class ScenarioRuns {
  private readonly ids = new Map<string, string>();
  private readonly scripts = new Map<string, Script>();

  constructor(readonly script: Script) {}

  add(name: string, runId: string, script?: Script): void {
    this.ids.set(name, runId);
    if (script !== undefined) this.scripts.set(runId, script);
  }

  /** The run id of a named run; an action on a run that has not started yet is refused. */
  idOf(name: string = MAIN_RUN): string {
    const id = this.ids.get(name);
    if (id === undefined) throw new Error(`run "${name}" has not started yet`);
    return id;
  }

  readonly scriptOf = (runId: string): Script => this.scripts.get(runId) ?? this.script;

  /** Named runs in the order they started. */
  named(): { name: string; runId: string }[] {
    return [...this.ids].map(([name, runId]) => ({ name, runId }));
  }

  nameOf(runId: string): string {
    for (const [name, id] of this.ids) if (id === runId) return name;
    return runId;
  }
}
