// What must hold after a run survived repeated kill -9s, checked from the CLI's own output
// (`events --json`, `inspect --json`, `runs --json`), the SQL projections and the side-effect files:
// nothing completed is lost, no recorded effect is repeated, no effect happens without a recorded
// start, the log is gapless and every projection agrees with it. Returns problems, not throws, so a
// failing test lists all of them at once.

export interface LoggedEvent {
  seq: number;
  type: string;
  step: string | null;
  activation: number | null;
  attempt: number | null;
  data: Record<string, unknown>;
  reason: string | null;
}

export interface InspectRecord {
  run: { id: string; state: string };
  steps: {
    id: string;
    state: string;
    activation: number;
    attempts: { id: string; state: string; error: { code: string; message: string } | null }[];
    evidence: { id: string } | null;
  }[];
}

export interface StepRow {
  stepId: string;
  activation: number;
  state: string;
  attempts: number;
  evidenceId: string | null;
}

export interface CrashFacts {
  events: LoggedEvent[];
  inspect: InspectRecord;
  /** State of the run in `weft runs --json` (the runs table). */
  listedState: string | undefined;
  /** Rows of the step_states projection. */
  stepRows: StepRow[];
  idempotent: readonly string[];
  external: readonly string[];
  /** Lines of the side-effect files: `<step> <activation> <attempt>`. */
  idempotentLines: readonly string[];
  externalLines: readonly string[];
}

export interface CrashSummary {
  resumes: number;
  /** Attempts the engine found running when it restarted (from engine_resumed). */
  interrupted: number;
  idempotentRerun: number;
  externalUnknown: number;
  /** External steps whose effect happened although its completion was never recorded. */
  externalUnknownWithEffect: number;
  /** Idempotent effects that happened more than once (allowed). */
  repeatedIdempotentEffects: number;
}

const ENGINE_STOPPED = /engine stopped/;
const SETTLED_STATE: Record<string, string> = { timed_out: 'failed', expired: 'failed', budget_exceeded: 'failed' };
const ENDED: Record<string, string> = { attempt_succeeded: 'succeeded', attempt_failed: 'failed', attempt_unknown: 'unknown' };

const key = (step: string | null, activation: number | null, attempt: number | null): string => `${step} ${activation} ${attempt}`;

export function checkCrashFacts(f: CrashFacts): { problems: string[]; summary: CrashSummary } {
  const problems: string[] = [];
  const { events } = f;
  const stepOf = (id: string): InspectRecord['steps'][number] | undefined => f.inspect.steps.find((s) => s.id === id);
  const ofStep = (id: string, type: string): LoggedEvent[] => events.filter((e) => e.step === id && e.type === type);
  const lines = (all: readonly string[], id: string): string[] => all.filter((l) => l.split(' ')[0] === id);

  // (d) The log is gapless: seq 1..n.
  events.forEach((e, k) => {
    if (e.seq !== k + 1) problems.push(`event #${k + 1} has seq ${e.seq}: the log has a gap or is out of order`);
  });

  // (a) The run succeeded, in the log, the fold and the runs table.
  const lastState = [...events].reverse().find((e) => e.type === 'run_state_changed')?.data['state'];
  if (lastState !== 'succeeded') problems.push(`the last run_state_changed says ${String(lastState)}, not succeeded`);
  if (f.inspect.run.state !== 'succeeded') problems.push(`inspect says the run is ${f.inspect.run.state}`);
  if (f.listedState !== f.inspect.run.state) problems.push(`runs --json says ${f.listedState}, inspect says ${f.inspect.run.state}`);

  // No effect without a recorded start: every line of both files names an attempt the log started.
  const started = new Set(events.filter((e) => e.type === 'attempt_started').map((e) => key(e.step, e.activation, e.attempt)));
  for (const line of [...f.idempotentLines, ...f.externalLines]) {
    if (!started.has(line)) problems.push(`side effect "${line}" happened, but the log never started that attempt`);
  }

  // (b) Each idempotent step completed exactly once; its effect may have happened more often.
  let idempotentRerun = 0;
  let repeatedIdempotentEffects = 0;
  for (const id of f.idempotent) {
    const succeeded = ofStep(id, 'attempt_succeeded');
    if (succeeded.length !== 1) problems.push(`idempotent step ${id} has ${succeeded.length} attempt_succeeded events, not 1`);
    const mine = lines(f.idempotentLines, id);
    const winner = succeeded[0];
    if (winner && !mine.includes(key(id, winner.activation, winner.attempt))) problems.push(`idempotent step ${id}: the succeeded attempt ${winner.activation}.${winner.attempt} left no side effect`);
    if (ofStep(id, 'attempt_started').length > 1) idempotentRerun++;
    repeatedIdempotentEffects += Math.max(0, mine.length - 1);
    if (stepOf(id)?.state !== 'succeeded') problems.push(`idempotent step ${id} is ${stepOf(id)?.state}, not succeeded`);
  }

  // (c) An external effect is never repeated; an interrupted one is unknown, not retried.
  let externalUnknown = 0;
  let externalUnknownWithEffect = 0;
  for (const id of f.external) {
    const starts = ofStep(id, 'attempt_started');
    const mine = lines(f.externalLines, id);
    if (starts.length !== 1) problems.push(`external step ${id} has ${starts.length} attempt_started events, not 1`);
    if (mine.length > 1) problems.push(`external step ${id}: its effect happened ${mine.length} times`);
    const unknown = ofStep(id, 'attempt_unknown');
    const succeeded = ofStep(id, 'attempt_succeeded');
    for (const u of unknown) {
      if (!ENGINE_STOPPED.test(u.reason ?? '')) problems.push(`external step ${id} became unknown for another reason: ${u.reason}`);
    }
    if (unknown.length > 0) {
      externalUnknown++;
      if (mine.length === 1) externalUnknownWithEffect++;
      if (stepOf(id)?.state !== 'unknown') problems.push(`external step ${id} was interrupted but is ${stepOf(id)?.state}, not unknown`);
    } else if (succeeded.length === 1) {
      if (mine.length !== 1) problems.push(`external step ${id} succeeded but its effect happened ${mine.length} times`);
      if (stepOf(id)?.state !== 'succeeded') problems.push(`external step ${id} succeeded but is ${stepOf(id)?.state}`);
    } else problems.push(`external step ${id} neither succeeded nor became unknown`);
  }

  // Interrupted means: started in one process life, ended in a later one. engine_resumed marks
  // where a life began after a stop; each attempt that spans one must have been ended by the
  // restart (idempotent: failed "interrupted" and run again; external: unknown), and only those.
  const resumedAt = events.filter((e) => e.type === 'engine_resumed').map((e) => e.seq);
  for (const start of events.filter((e) => e.type === 'attempt_started')) {
    const end = events.find((e) => e.seq > start.seq && e.step === start.step && e.activation === start.activation && e.attempt === start.attempt && ENDED[e.type] !== undefined);
    const id = `${start.step}/${start.activation}.${start.attempt}`;
    if (end === undefined) {
      problems.push(`attempt ${id} never ended`);
      continue;
    }
    const spans = resumedAt.some((r) => r > start.seq && r < end.seq);
    const byRestart = (end.type === 'attempt_failed' && (end.data['error'] as { code?: string } | undefined)?.code === 'interrupted') || (end.type === 'attempt_unknown' && ENGINE_STOPPED.test(end.reason ?? ''));
    if (spans !== byRestart) problems.push(`attempt ${id} ${spans ? 'spans a restart' : 'ended in its own life'} but ended with ${end.type} (${end.reason})`);
  }
  for (const r of events.filter((e) => e.type === 'engine_resumed')) {
    const spanning = events.filter((s) => {
      if (s.type !== 'attempt_started' || s.seq > r.seq) return false;
      const end = events.find((e) => e.seq > s.seq && e.step === s.step && e.activation === s.activation && e.attempt === s.attempt && ENDED[e.type] !== undefined);
      return end === undefined || end.seq > r.seq;
    }).length;
    if (spanning !== r.data['interrupted']) problems.push(`engine_resumed #${r.seq} counts ${String(r.data['interrupted'])} interrupted attempts; ${spanning} were running`);
  }

  // (d) The fold (inspect) agrees with the events, and the step_states projection with the fold.
  for (const s of f.inspect.steps) {
    const starts = ofStep(s.id, 'attempt_started');
    const ids = starts.map((e) => `${s.id}/${e.activation}.${e.attempt}`);
    if (JSON.stringify(ids) !== JSON.stringify(s.attempts.map((a) => a.id))) problems.push(`step ${s.id}: inspect lists attempts ${s.attempts.map((a) => a.id).join(',')}, the log started ${ids.join(',')}`);
    for (const a of s.attempts) {
      const end = events.find((e) => e.step === s.id && `${s.id}/${e.activation}.${e.attempt}` === a.id && ENDED[e.type] !== undefined);
      const want = end === undefined ? 'running' : ENDED[end.type];
      if (a.state !== want) problems.push(`attempt ${a.id}: inspect says ${a.state}, the log says ${want}`);
    }
    const settled = ofStep(s.id, 'step_settled').pop();
    const outcome = settled?.data['outcome'];
    const want = typeof outcome === 'string' ? (SETTLED_STATE[outcome] ?? outcome) : 'blocked';
    if (s.state !== want) problems.push(`step ${s.id}: inspect says ${s.state}, its last step_settled says ${want}`);
    // step_states holds the steps of unfinished runs only; a finished run's steps live in its log.
    const row = f.stepRows.find((r) => r.stepId === s.id);
    const finished = ['succeeded', 'failed', 'cancelled'].includes(f.inspect.run.state);
    if (finished) {
      if (row !== undefined) problems.push(`step ${s.id} of a finished run still has a step_states row`);
    } else if (row === undefined) problems.push(`step ${s.id} has no step_states row`);
    else {
      const current = s.attempts.filter((a) => a.id.startsWith(`${s.id}/${s.activation}.`)).length;
      const mismatch = row.state !== s.state || row.activation !== s.activation || row.attempts !== current || row.evidenceId !== (s.evidence?.id ?? null);
      if (mismatch) problems.push(`step ${s.id}: step_states row ${JSON.stringify(row)} disagrees with the fold (${s.state}, activation ${s.activation}, ${current} attempts, evidence ${s.evidence?.id ?? null})`);
    }
  }

  const resumed = events.filter((e) => e.type === 'engine_resumed');
  return {
    problems,
    summary: {
      resumes: resumed.length,
      interrupted: resumed.reduce((n, e) => n + Number(e.data['interrupted'] ?? 0), 0),
      idempotentRerun,
      externalUnknown,
      externalUnknownWithEffect,
      repeatedIdempotentEffects,
    },
  };
}
