// The verdicts of a replay (docs/evolution.md, "Verdicts"), apart from the replay's schemas so that
// what names them (a bulk row, the runs list) does not load the scenario schema and its JSONata.

export const REPLAY_VERDICTS = ['same', 'fixed', 'changed', 'regressed', 'incomplete'] as const;
export type ReplayVerdict = (typeof REPLAY_VERDICTS)[number];
