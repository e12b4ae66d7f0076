// The lessons that concern the selected step, at the top of its inspector: what earlier runs
// taught (the failure mode), what was changed because of it, the run it came from and who
// recorded it. Read before changing the step; the save asks again when a change touches it.
import { BookOpen } from 'lucide-react';
import { useStepLessons } from '../../core/workflow-lessons.ts';
import { useRoute } from '../../core/route-store.ts';
import { When } from '../../core/when.tsx';

export function StepLessons({ stepId }: { stepId: string }) {
  const lessons = useStepLessons(stepId);
  const go = useRoute((s) => s.go);
  if (lessons.length === 0) return null;
  return (
    <section className="ins-lessons" aria-label="lessons" data-testid="step-lessons-panel">
      <h3 className="ins-lessons-head">
        <BookOpen size={14} aria-hidden="true" />
        {lessons.length} lesson{lessons.length === 1 ? '' : 's'} concern{lessons.length === 1 ? 's' : ''} this step
      </h3>
      <ul className="ins-lessons-list">
        {lessons.map((l) => (
          <li key={l.id} className="ins-lesson" data-testid={`lesson-${l.id}`}>
            <p className="ins-lesson-mode">{l.failureMode}</p>
            <p className="ins-lesson-changed">
              <span className="faint">Changed: </span>
              {l.changed}
            </p>
            <span className="faint ins-lesson-meta">
              {l.id} · {l.by} · <When at={l.at} /> · run{' '}
              <button type="button" className="link-button mono" onClick={() => go({ page: 'run', id: l.runId })}>
                {l.runId}
              </button>
              {l.steps.length > 1 ? ` · also ${l.steps.filter((s) => s !== stepId).join(', ')}` : ''}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
