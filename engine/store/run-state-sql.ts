// The run states as SQL lists, for the queries that pick runs by whether they have finished (the
// state index of `runs`): one home, so a new state is in every such query at once.
import { FINISHED_RUN_STATES, isFinishedRunState, RUN_STATES } from '../../shared/definition/names.ts';

const quoted = (states: readonly string[]): string => states.map((s) => `'${s}'`).join(', ');

/** `'succeeded', 'failed', …`: the states of a finished run, for `state IN (…)`. */
export const FINISHED_STATES_SQL = quoted(FINISHED_RUN_STATES);

/** The states of a run still going, for `state IN (…)` (the state index finds them). */
export const UNFINISHED_STATES_SQL = quoted(RUN_STATES.filter((s) => !isFinishedRunState(s)));
