// A collapsible section of the form. Whether it is open is kept per kind of element (every
// step shows the same sections open), and a focus request opens the one holding its field.
import { useId, type ReactNode } from 'react';
import { ChevronRight } from 'lucide-react';
import { isOpen, useInspectorUi } from './inspector-ui-store.ts';

export function Section({ scope, id, title, summary, children }: { scope: string; id: string; title: string; summary?: string | undefined; children: ReactNode }) {
  const key = `${scope}:${id}`;
  const open = useInspectorUi((s) => isOpen(s.open, key));
  const setOpen = useInspectorUi((s) => s.setOpen);
  const bodyId = useId();
  return (
    <section className="ins-section" data-section={id} data-open={open}>
      <h3 className="ins-section-head">
        <button type="button" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(key, !open)} data-testid={`section-${id}`}>
          <ChevronRight size={14} aria-hidden="true" className="ins-chevron" />
          <span>{title}</span>
          {summary !== undefined && !open ? <span className="ins-section-summary">{summary}</span> : null}
        </button>
      </h3>
      {open ? (
        <div className="ins-section-body" id={bodyId}>
          {children}
        </div>
      ) : null}
    </section>
  );
}
