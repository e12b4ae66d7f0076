// The notes people wrote on a run (note_added, `weft note`) and the "Add note" control: on the
// run's facts (every note, run and steps) and in a step's detail (that step's notes). A note is
// sent as the `note` action of POST /api/runs/:id/actions, allowed in every run state; the live
// stream then brings its event to the timeline, where it shows as a note marker.
import { useMemo, useState } from 'react';
import { MessageSquarePlus, StickyNote } from 'lucide-react';
import { MAX_NOTE_LENGTH } from '../../../shared/api/note-command.ts';
import type { RunNoteView } from '../../../shared/api/restart-record.ts';
import type { RunDetail } from '../../../shared/api/run-detail.ts';
import type { RunActionsClient } from '../../api/run-actions-client.ts';
import { requireClients } from '../../api/clients.ts';
import { When } from '../../core/when.tsx';
import { ActionDialog } from '../actions/action-dialog.tsx';
import { RecordLesson } from './lesson-dialog.tsx';
import './run-notes.css';

export interface RunNotesProps {
  detail: RunDetail;
  /** A step's notes and a note on it; absent: every note of the run, and a note on the run. */
  stepId?: string;
  client?: RunActionsClient;
  /** The engine recorded the note. */
  onDone?(): void;
}

export function RunNotes({ detail, stepId, client, onDone }: RunNotesProps) {
  const actions = useMemo(() => client ?? requireClients().actions, [client]);
  const [open, setOpen] = useState(false);
  const all = detail.run.notes ?? [];
  const notes = stepId === undefined ? all : all.filter((n) => n.stepId === stepId);
  // A replay takes no action, a note included (the engine would refuse it).
  const canNote = detail.run.replayOf === undefined;
  const dialog = open ? <NoteDialog detail={detail} stepId={stepId} client={actions} onDone={onDone} onClose={() => setOpen(false)} /> : null;
  // A step without notes offers only the button, beside its actions: the detail's room is for what the step did.
  if (stepId !== undefined && notes.length === 0) {
    return canNote ? (
      <div className="run-notes-compact" data-testid={`step-notes-${stepId}`}>
        <AddNoteButton onClick={() => setOpen(true)} />
        {dialog}
      </div>
    ) : null;
  }
  return (
    <section className="panel-section run-notes" data-testid={stepId === undefined ? 'run-notes' : `step-notes-${stepId}`}>
      <div className="run-notes-head">
        <h3>Notes{notes.length > 0 ? <span className="faint"> · {notes.length}</span> : null}</h3>
        {canNote ? (
          <div className="run-notes-buttons">
            {stepId === undefined ? <RecordLesson detail={detail} /> : null}
            <AddNoteButton onClick={() => setOpen(true)} />
          </div>
        ) : null}
      </div>
      {notes.length === 0 ? (
        <p className="faint run-notes-empty">No notes on this run yet.</p>
      ) : (
        <ul className="run-notes-list">
          {notes.map((n) => (
            <NoteItem key={n.seq} note={n} showStep={stepId === undefined} />
          ))}
        </ul>
      )}
      {dialog}
    </section>
  );
}

function AddNoteButton({ onClick }: { onClick(): void }) {
  return (
    <button type="button" className="button run-notes-add" onClick={onClick} data-testid="add-note">
      <MessageSquarePlus size={13} aria-hidden="true" />
      Add note
    </button>
  );
}

function NoteItem({ note, showStep }: { note: RunNoteView; showStep: boolean }) {
  return (
    <li className="run-note" data-testid={`note-${note.seq}`}>
      <StickyNote size={13} aria-hidden="true" className="run-note-icon" />
      <div className="run-note-body">
        <p className="run-note-text">{note.text}</p>
        <span className="faint run-note-meta">
          {note.by} · <When at={note.at} part="local" />
          {showStep && note.stepId !== null ? (
            <>
              {' '}
              · on <span className="mono">{note.stepId}</span>
            </>
          ) : null}
        </span>
      </div>
    </li>
  );
}

interface NoteDialogProps {
  detail: RunDetail;
  stepId: string | undefined;
  client: RunActionsClient;
  onDone: (() => void) | undefined;
  onClose(): void;
}

function NoteDialog({ detail, stepId, client, onDone, onClose }: NoteDialogProps) {
  const [text, setText] = useState('');
  const run = detail.run;
  const blank = text.trim() === '';
  const over = text.length - MAX_NOTE_LENGTH;
  return (
    <ActionDialog
      name="note"
      title={stepId === undefined ? 'Add a note to the run' : `Add a note to step ${stepId}`}
      subject={
        <>
          <span className="mono">{run.id}</span> · {run.workflowId} v{run.version} · {run.state.replace('_', ' ')}
        </>
      }
      submitLabel="Add note"
      reason="none"
      blocked={blank ? 'Write the note first.' : over > 0 ? `The note is ${over} characters too long (at most ${MAX_NOTE_LENGTH}).` : null}
      onSubmit={async (who) => {
        await client.runAction(run.id, { action: 'note', ...(stepId === undefined ? {} : { step: stepId }), text, by: who.by });
        onDone?.();
      }}
      onClose={onClose}
    >
      <label className="form-row">
        <span>Note</span>
        <textarea
          className="text-input run-note-input"
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={4}
          placeholder="What the next person should know: what you checked, who you called, what you decided"
          data-testid="note-text"
        />
        <small className={over > 0 ? 'run-note-count over' : 'faint run-note-count'}>
          {text.length.toLocaleString('en')} / {MAX_NOTE_LENGTH.toLocaleString('en')}
        </small>
      </label>
      <p className="muted action-explain">Kept in the run’s log with your name; it shows on the timeline and in the restart record. It changes nothing else.</p>
    </ActionDialog>
  );
}
