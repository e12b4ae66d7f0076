// "Record lesson" on a run: what the run taught about its workflow (the failure mode), what was
// changed because of it, and the steps it concerns, written to the lessons file beside the
// workflow (POST /api/workflows/:id/lessons). The editor then shows it on those steps.
import { useState } from 'react';
import { BookPlus } from 'lucide-react';
import { MAX_LESSON_TEXT } from '../../../shared/lessons/lessons-schema.ts';
import type { RunDetail } from '../../../shared/api/run-detail.ts';
import { requireClients } from '../../api/clients.ts';
import { refreshLessons } from '../../core/workflow-lessons.ts';
import { ActionDialog } from '../actions/action-dialog.tsx';

export function RecordLesson({ detail, stepId }: { detail: RunDetail; stepId?: string | undefined }) {
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  return (
    <>
      <button type="button" className="button run-notes-add" onClick={() => setOpen(true)} data-testid="record-lesson">
        <BookPlus size={13} aria-hidden="true" />
        Record lesson
      </button>
      {done !== null ? (
        <span className="faint run-lesson-done" role="status" data-testid="lesson-recorded">
          {done}
        </span>
      ) : null}
      {open ? <LessonDialog detail={detail} initial={stepId} onDone={setDone} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function LessonDialog({ detail, initial, onDone, onClose }: { detail: RunDetail; initial: string | undefined; onDone(text: string): void; onClose(): void }) {
  const run = detail.run;
  const [steps, setSteps] = useState<string[]>(initial === undefined ? [] : [initial]);
  const [failureMode, setFailureMode] = useState('');
  const [changed, setChanged] = useState('');
  const toggle = (id: string) => setSteps((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));
  const blocked =
    steps.length === 0
      ? 'Choose the steps the lesson concerns.'
      : failureMode.trim() === ''
        ? 'Say what went wrong (the failure mode).'
        : changed.trim() === ''
          ? 'Say what was changed because of it.'
          : failureMode.length > MAX_LESSON_TEXT || changed.length > MAX_LESSON_TEXT
            ? `Each text is at most ${MAX_LESSON_TEXT} characters.`
            : null;
  return (
    <ActionDialog
      name="lesson"
      title="Record a lesson"
      subject={
        <>
          from run <span className="mono">{run.id}</span> · kept in {run.workflowId}.lessons.json beside the workflow
        </>
      }
      submitLabel="Record lesson"
      reason="none"
      blocked={blocked}
      onSubmit={async (who) => {
        const answer = await requireClients().api.addLesson(run.workflowId, { runId: run.id, steps, failureMode, changed, by: who.by });
        const lesson = answer.lessons.at(-1);
        onDone(`Lesson ${lesson?.id ?? ''} recorded in ${answer.file}`);
        await refreshLessons(run.workflowId);
      }}
      onClose={onClose}
    >
      <fieldset className="lesson-steps">
        <legend>Steps it concerns</legend>
        {detail.steps.map((s) => (
          <label key={s.id} className="lesson-step">
            <input type="checkbox" checked={steps.includes(s.id)} onChange={() => toggle(s.id)} data-testid={`lesson-step-${s.id}`} />
            <span className="mono">{s.id}</span>
          </label>
        ))}
      </fieldset>
      <label className="form-row">
        <span>Failure mode</span>
        <textarea className="text-input run-note-input" rows={3} value={failureMode} onChange={(e) => setFailureMode(e.target.value)} placeholder="What went wrong, as someone would spot it next time" data-testid="lesson-failure-mode" />
      </label>
      <label className="form-row">
        <span>What we changed</span>
        <textarea className="text-input run-note-input" rows={3} value={changed} onChange={(e) => setChanged(e.target.value)} placeholder="The change to the workflow, a prompt, a runbook" data-testid="lesson-changed" />
      </label>
    </ActionDialog>
  );
}
