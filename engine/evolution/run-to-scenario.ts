// A run becomes a test (issue 22 part 2, docs/evolution.md): a stored run's log turned into one
// scenario of docs/scenarios.md. Its input is the run's first input, with each revision at its
// offset; every call out to the world (a revalidate check's read included) gets its recorded
// answer as a scripted outcome; people's decisions, delivered events and operator actions come at
// their offsets; and `expect` is how the run ended, step by step. Run against the same workflow it passes; against a changed one it
// shows what the change does to the run. A sensitive value, which the log holds as its redacted
// reference, is the placeholder in the scenario (shared/artifacts/sensitive-placeholder.ts): the
// scenario never holds the secret, nor its hash. A value the log holds by reference because it is
// large is the value itself, read from the run's artifact store (inline-artifacts.ts): a run whose
// artifacts are gone (`weft gc` after its runs were deleted, a lost folder) is refused.
import { withPlaceholders } from '../../shared/artifacts/sensitive-placeholder.ts';
import { isFinishedRunState, type RunState } from '../../shared/definition/names.ts';
import { runsOutside } from '../../shared/definition/step-kinds.ts';
import type { RunEvent } from '../../shared/events/run-event.ts';
import type { RunModel } from '../../shared/run/run-model.ts';
import { Scenario } from '../../shared/scenario/scenario-schema.ts';
import type { ArtifactRef } from '../../shared/artifacts/artifact-ref.ts';
import { inlineArtifacts, UnreadableArtifactError } from './inline-artifacts.ts';
import { recordedCalls, scriptOf } from './recorded-script.ts';
import { recordedInputs } from './recorded-inputs.ts';
import { readCalls } from './recorded-reads.ts';
import { recordedExpect } from './recorded-expect.ts';

/** Why a run cannot become a test: `not-finished` (still going), `fork` (its start came from another run), `pinned` (a debug run pinned a step the engine computes), `artifact` (a value it kept by reference cannot be read). */
export class RunToScenarioError extends Error {
  constructor(
    readonly code: 'not-finished' | 'fork' | 'pinned' | 'artifact',
    message: string,
  ) {
    super(message);
    this.name = 'RunToScenarioError';
  }
}

/** The scenario made from a run, and what it is a test of. */
export interface RunScenario {
  runId: string;
  workflowId: string;
  version: number;
  state: RunState;
  /** The folder the run ran in (its workflow's workspace): where its workflow file is looked for. */
  workspaceDir: string;
  scenario: Scenario;
}

/**
 * The scenario that replays run `model` (folded from `events`, its whole log) in virtual time.
 * Refuses a run that has not ended, a fork, and a debug run that pinned a step the engine
 * computes itself; a debug run's pins on steps that call out become those calls' answers, and its
 * breakpoints are not kept. `read` reads a value the log holds by reference (the run's artifact
 * store); a reference it cannot read refuses the run, naming the value and the artifact.
 *
 * @example
 * const { scenario } = runToScenario(reader.fold(id), store.readEvents(id), (ref) => artifacts.read(ref));
 */
export function runToScenario(model: RunModel, events: readonly RunEvent[], read: (ref: ArtifactRef) => unknown): RunScenario {
  const created = events[0];
  if (created?.type !== 'run_created') throw new Error(`the log of run ${model.runId} does not start with run_created`);
  const { workflowId, version } = created.data;
  if (!isFinishedRunState(model.state)) {
    throw new RunToScenarioError(
      'not-finished',
      `run ${model.runId} is ${model.state}: a test is made from a run that has ended (succeeded, failed or cancelled), since a scenario runs until nothing is left to do; let it finish, or cancel it (weft cancel ${model.runId}), then make the test`,
    );
  }
  if (created.data.forkOf !== undefined) {
    const { runId, fromStep } = created.data.forkOf;
    throw new RunToScenarioError(
      'fork',
      `run ${model.runId} is a fork of run ${runId} from step "${fromStep}": what it kept came from that run, and a scenario starts from nothing; make the test from run ${runId} (a scenario forks with an operator "fork" action, see docs/scenarios.md)`,
    );
  }
  const byId = new Map(model.workflow.steps.map((s) => [s.id, s]));
  const kindOf = (id: string) => byId.get(id)?.kind;
  for (const id of Object.keys(created.data.debug?.pins ?? {})) {
    const kind = kindOf(id);
    if (kind !== undefined && !runsOutside(kind)) {
      throw new RunToScenarioError(
        'pinned',
        `run ${model.runId} is a debug run that pinned step "${id}" (${kind}), which the engine computes itself; a scenario answers only the steps that call out, so it cannot give "${id}" that output; make the test from a run without that pin`,
      );
    }
  }
  const steps: Record<string, ReturnType<typeof scriptOf>> = {};
  for (const [id, calls] of recordedCalls(events, kindOf)) steps[id] = scriptOf(calls);
  // The reads the run's revalidate checks ran first, answered as they were (`STEP.revalidate`).
  for (const [name, calls] of readCalls(events)) steps[name] = scriptOf(calls);
  const inputs = recordedInputs(model.workflow, events);
  const revised = inputs.revise.length > 0;
  const made = {
    name: `from run ${model.runId} (${workflowId} v${version}, ${model.state}, ${new Date(created.at).toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
    input: created.data.input,
    ...(Object.keys(steps).length === 0 ? {} : { steps }),
    ...(inputs.decisions.length === 0 ? {} : { decisions: inputs.decisions }),
    ...(inputs.events.length === 0 ? {} : { events: inputs.events }),
    ...(inputs.operator.length === 0 ? {} : { operator: inputs.operator }),
    ...(revised ? { revise: inputs.revise } : {}),
    expect: recordedExpect(model, events),
  };
  let values: unknown;
  try {
    values = inlineArtifacts(made, read, '');
  } catch (e) {
    if (!(e instanceof UnreadableArtifactError)) throw e;
    throw new RunToScenarioError(
      'artifact',
      `run ${model.runId} cannot become a test: ${e.message} (a scenario holds the values themselves; weft gc removes an artifact only once no run references it). Nothing was written; make the test from another run, or restore the artifacts first`,
    );
  }
  const scenario = Scenario.parse(withPlaceholders(values));
  return { runId: model.runId, workflowId, version, state: model.state, workspaceDir: created.data.workspaceDir, scenario };
}
