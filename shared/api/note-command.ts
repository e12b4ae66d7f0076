// An operator's note on a run or one of its steps (`weft note RUN [STEP] TEXT`, the app's "Add
// note"): words for the people who read the run later, kept in its log as `note_added`. It is one
// action of `POST /api/runs/:id/actions`, so a terminal's note reaches the `weft serve` that owns
// the store like any other action; unlike the others it is allowed in every run state, settled
// runs included, and changes nothing but the record (docs/long-running.md, "Notes and lessons").
import { z } from 'zod';
import { ActorName, NonBlankText, StepId } from './api-ids.ts';

/** Longest note accepted: a few paragraphs; longer findings belong in a lesson or a linked document. */
export const MAX_NOTE_LENGTH = 4000;

/** A note's text: not blank, at most MAX_NOTE_LENGTH characters. */
export const NoteText = NonBlankText.max(MAX_NOTE_LENGTH, `a note is at most ${MAX_NOTE_LENGTH} characters; put longer findings in a lesson (weft lesson add) or a document the note names`);

/**
 * A note on the run, or on `step` when given; `by` defaults as for every operator action.
 *
 * @example
 * NoteCommand.parse({ action: 'note', step: 'charge', text: 'the bank confirmed the charge by phone', by: 'ana' });
 */
export const NoteCommand = z.strictObject({ action: z.literal('note'), step: StepId.optional(), text: NoteText, by: ActorName.optional() });
export type NoteCommand = z.infer<typeof NoteCommand>;
