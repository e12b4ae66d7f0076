// One run: its graph coloured by each step's live state, the selected step's detail (attempts,
// evidence, provenance, what may be done), the restart record in words, the run's input and
// child runs; the timeline below. Selecting in any of them selects in all. The run's detail and
// its events are two queries (core/run-queries.ts): the timeline draws from the first events page
// without waiting for the detail, and the stream keeps both current while the page watches the run.
import { RunPolicy } from '../policy/run-policy.tsx';
import { useCallback, useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { CornerLeftUp } from 'lucide-react';
import type { Workflow } from '../../shared/definition/workflow-schema.ts';
import { isFinishedRunState } from '../../shared/definition/names.ts';
import type { RunDetail } from '../../shared/api/run-detail.ts';
import { useRunMarks } from '../core/run-marks-store.ts';
import { refetchRunDetail, useRunDetail, useRunWorkflowId } from '../core/run-queries.ts';
import { useWorkflowDetail } from '../core/workflow-queries.ts';
import { useWatchRuns } from '../core/watched-runs.ts';
import { messageOf } from '../core/query-client.ts';
import { requireClients } from '../api/clients.ts';
import { useRoute } from '../core/route-store.ts';
import { WorkflowGraph } from '../graph/workflow-graph.tsx';
import type { Diagnostic } from '../api/api-types.ts';
import { formatDuration } from '../core/format.ts';
import { When } from '../core/when.tsx';
import { StepDetail, type RunSelection } from './run-view/step-detail.tsx';
import { RestartRecordView } from './run-view/restart-record-view.tsx';
import { RunCostChip, RunCostSection } from './run-view/run-cost-view.tsx';
import { ValueView } from './run-view/value-view.tsx';
import { RunActions } from './actions/run-actions.tsx';
import { RunNotes } from './notes/run-notes.tsx';
import { RunCompareMenu } from './run-compare-menu.tsx';
import { ReplayOfLink } from './replay/replay-of-link.tsx';
import { StepActions } from './actions/step-actions.tsx';
import { DebugActions } from './actions/debug-actions.tsx';
import { TimeTravel } from './run-view/time-travel.tsx';
import { itemFailures } from './run-view/item-failures.ts';
import { RunFailing } from './run-view/run-failing.tsx';
import { wrongStep } from './run-view/wrong-step.ts';
import type { ItemsMark } from '../graph/to-flow.ts';
import { Timeline, type TimelineSelection } from './timeline/timeline.tsx';
import { useRunTimeline } from './timeline/use-run-timeline.ts';
import { TimelineFrame } from './timeline/timeline-split.tsx';
import { useNow } from '../core/use-now.ts';
import './run-view/run-view.css';
import { versionLabel } from '../../shared/run/version-label.ts';

const NO_DIAGNOSTICS: Diagnostic[] = [];
type Tab = 'step' | 'record' | 'run';

export function RunPage({ id }: { id: string }) {
  const query = useRunDetail(id);
  const live = query.data;
  useWatchRuns(useMemo(() => [id], [id]));
  // The graph draws the run's steps and edges from the marks store, under the run's id (before
  // the frame is painted, so the graph never shows the run without its states).
  useLayoutEffect(() => {
    if (live !== undefined) useRunMarks.getState().showAt(id, live);
  }, [id, live]);
  useEffect(() => () => useRunMarks.getState().showAt(id, null), [id]);
  // Time travel: the run as of an earlier event, drawn under its own id in the marks store.
  const [past, setPast] = useState<{ detail: RunDetail; seq: number } | null>(null);
  const viewId = past === null ? id : `${id}@${past.seq}`;
  const showPast = useCallback(
    (view: { detail: RunDetail; seq: number } | null) => {
      setPast((before) => {
        if (before !== null) useRunMarks.getState().showAt(`${id}@${before.seq}`, null);
        if (view !== null) useRunMarks.getState().showAt(`${id}@${view.seq}`, view.detail);
        return view;
      });
    },
    [id],
  );
  const detail = past === null ? live : { ...past.detail, definition: live?.definition };
  const error = query.error === null ? undefined : messageOf(query.error);
  const loadRun = refetchRunDetail;
  const [selection, setSelection] = useState<RunSelection | null>(null);
  const [tab, setTab] = useState<Tab>('record');
  useEffect(() => {
    document.title = `Run ${id} · Weft Studio`;
  }, [id]);
  const definition = useRunDefinition(id, live);
  const children = detail?.children;
  const items = useMemo(() => itemMarks(children, definition), [children, definition]);
  const runDebug = detail?.run.debug;
  const debugMarks = useMemo(() => (runDebug === undefined ? null : { breakpoints: runDebug.breakpoints, pins: runDebug.pins }), [runDebug]);

  // A failed run opens at the step it is failing at: its cause is one click further. Set while
  // rendering (React renders again at once, before anything is drawn): an effect would first draw
  // and lay out the restart record's tab, a row per step, only to replace it (docs/bench-app.md).
  if (selection === null && detail !== undefined) {
    // The step that went wrong (wrong-step.ts), which the header names too.
    const failing = wrongStep(detail)?.stepId;
    if (failing !== undefined) {
      setSelection({ stepId: failing, attemptId: null });
      setTab('step');
    }
  }

  if (detail === undefined) {
    if (error !== undefined) return <div className="error-box">Could not open run {id}: {error}</div>;
    // The first timeline rows do not wait for the detail: they come from the first events page.
    return (
      <div className="run-view" data-testid="run-view-loading">
        <div className="loading">Loading run {id}…</div>
        <TimelineFrame>
          <TimelinePane runId={id} lastSeq={null} pageOn={false} live selection={null} onSelect={() => {}} cursorMs={null} />
        </TimelineFrame>
      </div>
    );
  }
  const select = (next: RunSelection) => {
    setSelection(next);
    setTab('step');
  };
  return (
    <div className="run-view" data-testid="run-view">
      <RunHead detail={detail} />
      {past !== null ? (
        <div className="banner" role="status" data-testid="time-travel-banner">
          Showing the run as of event {past.seq}: actions act on the run as it is now.
        </div>
      ) : null}
      <div className="run-body">
        <div className="run-graph">
          {definition === null ? (
            <div className="loading">Loading the definition of {detail.run.workflowId} v{detail.run.version}…</div>
          ) : (
            <WorkflowGraph
              workflow={definition}
              diagnostics={NO_DIAGNOSTICS}
              runId={viewId}
              items={items}
              debug={debugMarks}
              selected={selection?.stepId ?? null}
              onSelect={(stepId) => (stepId === null ? setSelection(null) : select({ stepId, attemptId: null }))}
            />
          )}
        </div>
        <aside className="panel run-panel" aria-label="run details">
          {/* The run's cost sits beside the tablist (a tablist holds only tabs), not in the head, which stays on one line. */}
          <div className="panel-tabs">
            <div className="panel-tabs-list" role="tablist" aria-label="run details">
              {(['step', 'record', 'run'] as const).map((t) => (
                <button key={t} type="button" role="tab" aria-selected={tab === t} onClick={() => setTab(t)} data-testid={`run-tab-${t}`}>
                  {t === 'step' ? 'Step' : t === 'record' ? 'Restart record' : 'Run'}
                </button>
              ))}
            </div>
            <span className="toolbar-spacer" />
            <RunCostChip cost={detail.cost} onOpen={() => setTab('run')} />
          </div>
          {/* Keyed by tab: each tab opens at its top, not at the scroll of the tab before. */}
          <div className="run-panel-body" key={tab}>
            {tab === 'step' ? (
              selection === null || definition === null ? (
                <p className="muted run-detail-empty">Select a step on the graph, the timeline or the restart record.</p>
              ) : (
                <StepDetail
                  detail={detail}
                  definition={definition}
                  selection={selection}
                  onSelect={select}
                  actions={
                    <>
                      <StepActions
                        detail={detail}
                        stepId={selection.stepId}
                        onDone={(result, action) => (action === 'fork' ? useRoute.getState().go({ page: 'run', id: result.runId }) : void loadRun(id))}
                      />
                    </>
                  }
                  notes={<RunNotes detail={detail} stepId={selection.stepId} onDone={() => void loadRun(id)} />}
                />
              )
            ) : null}
            {tab === 'record' ? <RestartRecordView detail={detail} selected={selection?.stepId ?? null} onSelect={select} /> : null}
            {tab === 'run' ? <RunFacts detail={detail} onSelect={select} /> : null}
          </div>
        </aside>
      </div>
      {live !== undefined ? (
        <RunBottom
          runId={id}
          definition={definition}
          lastSeq={live.run.lastSeq}
          live={!isFinishedRunState(live.run.state)}
          selection={selection}
          onSelect={(s) => (s === null ? setSelection(null) : select(s))}
          onView={showPast}
          cursorMs={past === null ? null : past.detail.run.updatedAtMs}
        />
      ) : null}
    </div>
  );
}

/** The timeline of the run and the time-travel scrubber under it, in the frame the user sizes. */
function RunBottom(props: { runId: string; definition: Workflow | null; lastSeq: number; live: boolean; selection: RunSelection | null; onSelect(s: RunSelection | null): void; onView(view: { detail: RunDetail; seq: number } | null): void; cursorMs: number | null }) {
  return (
    <TimelineFrame>
      <TimelinePane {...props} />
      {props.definition !== null ? <TimeTravel runId={props.runId} definition={props.definition} lastSeq={props.lastSeq} client={requireClients().timeline} onView={props.onView} /> : null}
    </TimelineFrame>
  );
}

/** `pageOn` false: only the log's first page, while the run's detail is being read (core/run-queries.ts). */
function TimelinePane({ runId, lastSeq, pageOn = true, live, selection, onSelect, cursorMs }: { runId: string; lastSeq: number | null; pageOn?: boolean; live: boolean; selection: RunSelection | null; onSelect(s: RunSelection | null): void; cursorMs: number | null }) {
  const timeline = useRunTimeline(runId, requireClients().timeline, lastSeq, pageOn);
  const now = useNow(live ? 1000 : 60_000);
  const selected = useMemo(() => toTimelineSelection(selection), [selection]);
  if (timeline.error !== null) return <div className="error-box">The timeline could not be read: {timeline.error}</div>;
  if (timeline.model === null) return <div className="loading timeline-loading">Reading the run’s log…</div>;
  return (
    <div className="run-timeline" data-testid="run-timeline">
      <Timeline
        model={timeline.model}
        selected={selected}
        onSelect={(s) => onSelect(s === null ? null : { stepId: s.stepId, attemptId: s.activation !== undefined && s.attempt !== undefined ? `${s.stepId}/${s.activation}.${s.attempt}` : null })}
        nowMs={now}
        live={live}
        cursorMs={cursorMs}
      />
    </div>
  );
}

/** Map steps' failed items as the graph's badges show them (of the run as shown, past or live). */
function itemMarks(children: RunDetail['children'] | undefined, definition: Workflow | null): Record<string, ItemsMark> | null {
  if (children === undefined || definition === null) return null;
  const maps = new Set(definition.steps.filter((s) => s.kind === 'map').map((s) => s.id));
  const marks: Record<string, ItemsMark> = {};
  for (const [stepId, f] of Object.entries(itemFailures(children))) if (maps.has(stepId)) marks[stepId] = { failed: f.failed.length, total: f.total };
  return marks;
}

/** A run selection as the timeline knows it: an attempt id `step/activation.number` split up. */
function toTimelineSelection(selection: RunSelection | null): TimelineSelection | null {
  if (selection === null) return null;
  const m = /^(.*)\/(\d+)\.(\d+)$/.exec(selection.attemptId ?? '');
  return m === null ? { stepId: selection.stepId } : { stepId: selection.stepId, activation: Number(m[2]), attempt: Number(m[3]) };
}

/**
 * The run's own definition snapshot (the version it runs), with the file's layout when the file is
 * that version. A snapshot without a layout waits for the file while it is being read: drawn at
 * once, it would be laid out in the worker and drawn (and analysed) a second time when the file's
 * layout came, seconds of work at 1,000 steps (docs/bench-app.md). The file is asked for as soon
 * as the log's first page names the workflow, alongside the detail rather than after it.
 */
function useRunDefinition(runId: string, detail: RunDetail | undefined): Workflow | null {
  const earlyWorkflowId = useRunWorkflowId(runId);
  const workflowId = detail?.run.workflowId ?? earlyWorkflowId;
  const fileDetail = useWorkflowDetail(workflowId);
  const snapshot = detail?.definition;
  const file = fileDetail.data?.definition ?? null;
  const version = detail?.run.version;
  const fileReading = workflowId !== undefined && fileDetail.isPending;
  return useMemo(() => {
    const sameVersion = file !== null && file.version === version;
    if (snapshot === undefined) return sameVersion ? file : null;
    if (snapshot.layout === undefined && fileReading) return null;
    return sameVersion && file.layout !== undefined ? { ...snapshot, layout: file.layout } : snapshot;
  }, [snapshot, file, version, fileReading]);
}

function RunHead({ detail }: { detail: RunDetail }) {
  const go = useRoute((s) => s.go);
  const run = detail.run;
  const ended = isFinishedRunState(run.state);
  return (
    <div className="run-head">
      {run.parent !== null ? (
        <button type="button" className="link-button run-parent" onClick={() => go({ page: 'run', id: run.parent?.runId ?? '' })} data-testid="parent-run">
          <CornerLeftUp size={13} aria-hidden="true" /> {run.parent.runId} · {run.parent.stepId}
          {run.parent.index !== undefined ? ` [${run.parent.index}]` : ''}
        </button>
      ) : null}
      <h1 className="run-id mono">{run.id}</h1>
      {run.debug !== undefined ? (
        <span className="debug-badge" data-testid="run-debug" title={`breakpoints: ${run.debug.breakpoints.join(', ') || 'none'}; pinned: ${run.debug.pins.join(', ') || 'none'}`}>
          debug
          {run.debug.pausedAt !== null ? ` · paused before ${run.debug.pausedAt.step}` : run.debug.stepping ? ' · stepping' : ''}
        </span>
      ) : null}
      <span className="state" data-state={run.state} data-testid="run-state">
        {run.state.replace('_', ' ')}
      </span>
      <button type="button" className="link-button" onClick={() => go({ page: 'workflow', id: run.workflowId })}>
        {run.workflowId} {versionLabel(run.version)}
      </button>
      <span className="faint">
        started <When at={run.createdAtMs} />
        {ended ? ` · took ${formatDuration(run.updatedAtMs - run.createdAtMs)}` : ''}
      </span>
      {run.failing !== null ? <RunFailing detail={detail} /> : null}
      <span className="toolbar-spacer" />
      {run.replayOf !== undefined ? (
        <ReplayOfLink replayOf={run.replayOf} runId={run.id} />
      ) : (
        <>
          <DebugActions detail={detail} onDone={() => void refetchRunDetail(run.id)} />
          <RunActions detail={detail} onDone={() => void refetchRunDetail(run.id)} />
        </>
      )}
      <RunCompareMenu detail={detail} />
    </div>
  );
}

function RunFacts({ detail, onSelect }: { detail: RunDetail; onSelect(selection: RunSelection): void }) {
  const go = useRoute((s) => s.go);
  const run = detail.run;
  return (
    <div className="run-facts">
      <section className="panel-section">
        <h3>Run</h3>
        <dl className="kv">
          <dt>input rev.</dt>
          <dd>{run.inputRevision}</dd>
          {run.key !== null ? (
            <>
              <dt>key</dt>
              <dd className="mono">{run.key}</dd>
            </>
          ) : null}
          <dt>priority</dt>
          <dd>{run.priority}</dd>
          <dt>policy</dt>
          <RunPolicy policy={run.policy} />
          {run.forkOf !== null ? (
            <>
              <dt>fork of</dt>
              <dd>
                <button type="button" className="link-button mono" onClick={() => go({ page: 'run', id: run.forkOf?.runId ?? '' })}>
                  {run.forkOf.runId}
                </button>{' '}
                from {run.forkOf.fromStep}
              </dd>
            </>
          ) : null}
        </dl>
        {run.permittedActions.length > 0 ? (
          <ul className="rsd-permitted" style={{ marginTop: 8 }}>
            {run.permittedActions.map((p) => (
              <li key={p.action}>
                <span className="permitted-chip">{p.action}</span> <span className="muted">{p.why}</span>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      <RunCostSection detail={detail} onSelect={onSelect} />
      <section className="panel-section">
        <h3>Input</h3>
        <ValueView value={run.input} runId={run.id} valuePath="run.input" label="run input" testId="run-input" />
      </section>
      {detail.children.length > 0 ? (
        <section className="panel-section" data-testid="child-runs">
          <h3>Child runs</h3>
          <ul className="child-runs">
            {detail.children.map((c) => (
              <li key={c.runId}>
                <button type="button" className="rr-row" onClick={() => go({ page: 'run', id: c.runId })} data-testid={`child-run-${c.runId}`}>
                  <span className="rr-line">
                    <span className="mono">
                      {c.stepId}
                      {detail.children.filter((o) => o.stepId === c.stepId).length > 1 ? ` [${c.index}]` : ''}
                    </span>
                    <span className="state" data-state={c.state ?? 'running'}>
                      {(c.state ?? 'running').replace('_', ' ')}
                    </span>
                    <span className="faint mono">{c.runId}</span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {/* Notes after what the run is (input, children): a note comments on them. */}
      <RunNotes detail={detail} onDone={() => void refetchRunDetail(run.id)} />
    </div>
  );
}
