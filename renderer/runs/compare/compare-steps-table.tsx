// Every step of the two runs, side by side: what it did (its outcome, or what a step the latest
// pass went past did) and the time its attempts took, for A and for B, the differing cells
// highlighted; a step whose input or output differs opens to show its fields. A step that did not
// run in a run has no time there, whatever its state says.
import { Fragment, useState } from 'react';
import { ChevronDown, ChevronRight } from 'lucide-react';
import type { ComparedStep, ComparedStepSide } from '../../../shared/api/run-comparison.ts';
import { formatDuration } from '../../core/format.ts';
import { durationOf, rowMarks, stateCell, stepFieldDiffs } from './compare-model.ts';
import { FieldDiffTable } from './field-diff-table.tsx';

/** The runs' ids, to open a value left out of the comparison from its run. */
export interface CompareRunIds {
  a: string;
  b: string;
}

export function CompareStepsTable({ steps, first, runs }: { steps: readonly ComparedStep[]; first: string | null; runs: CompareRunIds }) {
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (id: string): void => {
    const next = new Set(open);
    if (!next.delete(id)) next.add(id);
    setOpen(next);
  };
  return (
    <table className="compare-steps" aria-label="steps side by side">
      <thead>
        <tr>
          <th scope="col">Step</th>
          <th scope="col">A</th>
          <th scope="col" className="compare-num">A time</th>
          <th scope="col">B</th>
          <th scope="col" className="compare-num">B time</th>
          <th scope="col">Differs in</th>
        </tr>
      </thead>
      <tbody>
        {steps.map((s) => {
          const marks = rowMarks(s);
          const fields = s.differs.includes('input') || s.differs.includes('output');
          const isOpen = open.has(s.id);
          return (
            <Fragment key={s.id}>
              <tr data-testid="compare-step-row" data-step={s.id} data-differs={s.differs.join(' ') || undefined} data-first={s.id === first || undefined}>
                <th scope="row" className="mono">
                  {fields ? (
                    <button type="button" className="compare-expand" aria-expanded={isOpen} onClick={() => toggle(s.id)} aria-label={`${isOpen ? 'hide' : 'show'} the fields of ${s.id} that differ`}>
                      {isOpen ? <ChevronDown size={12} aria-hidden="true" /> : <ChevronRight size={12} aria-hidden="true" />}
                    </button>
                  ) : (
                    <span className="compare-expand-space" />
                  )}
                  {s.id}
                </th>
                <StateCell side={s.a} marked={marks.state} />
                <DurationCell side={s.a} marked={marks.duration} />
                <StateCell side={s.b} marked={marks.state} />
                <DurationCell side={s.b} marked={marks.duration} />
                <td className="compare-differs">{s.differs.join(', ')}</td>
              </tr>
              {isOpen ? <FieldsRow step={s} runs={runs} /> : null}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}

function StateCell({ side, marked }: { side: ComparedStepSide | null; marked: boolean }) {
  const cell = stateCell(side);
  return (
    <td data-marked={marked || undefined} data-testid="compare-state">
      {cell.quiet ? (
        <span className="faint">{cell.word}</span>
      ) : (
        <>
          <span className="state" data-state={cell.state}>
            {cell.word.replace('_', ' ')}
          </span>
          {cell.then === null ? null : <span className="faint compare-then"> {cell.then}</span>}
        </>
      )}
    </td>
  );
}

/** The time its attempts took; empty for a step that did not run in that run. */
function DurationCell({ side, marked }: { side: ComparedStepSide | null; marked: boolean }) {
  const ms = durationOf(side);
  return (
    <td className="compare-num mono" data-marked={marked || undefined} data-testid="compare-duration">
      {ms !== null ? formatDuration(ms) : side?.ran === true ? <span className="faint">running</span> : ''}
    </td>
  );
}

function FieldsRow({ step, runs }: { step: ComparedStep; runs: CompareRunIds }) {
  const { input, output, inputTotal, outputTotal } = stepFieldDiffs(step);
  return (
    <tr className="compare-fields-row">
      <td colSpan={6}>
        {input.length > 0 ? <FieldDiffTable fields={input} total={inputTotal} runs={runs} label={`input fields of ${step.id} that differ`} caption={`Input of ${step.id}`} /> : null}
        {output.length > 0 ? <FieldDiffTable fields={output} total={outputTotal} runs={runs} label={`output fields of ${step.id} that differ`} caption={`Output of ${step.id}`} /> : null}
      </td>
    </tr>
  );
}
