// Opening a stored artifact of a run by its value path (docs/long-running.md; POST
// /api/runs/:id/artifact and `weft artifact open RUN PATH`): the request names the path of a
// reference in the run (as GET /api/runs/:id/value addresses values), the answer carries the value.
// Opening a sensitive value is recorded in the run's log as artifact_opened, with who opened it.
import { z } from 'zod';
import { ArtifactRefBody } from '../artifacts/artifact-ref.ts';
import { MAX_REF_LENGTH } from './forwarded-command.ts';

/** What to open: the value path of the reference, and who opens it (default: the server's or the CLI's operator). */
export const OpenArtifactCommand = z.strictObject({
  path: z.string().min(1).max(MAX_REF_LENGTH),
  by: z.string().min(1).max(MAX_REF_LENGTH).optional(),
});
export type OpenArtifactCommand = z.infer<typeof OpenArtifactCommand>;

/** The opened value, with the reference it was stored under; `recorded`: the opening is in the run's log (a sensitive value). */
export const OpenedArtifact = z.strictObject({
  runId: z.string(),
  path: z.string(),
  artifact: ArtifactRefBody,
  value: z.unknown(),
  recorded: z.boolean(),
});
export type OpenedArtifact = z.infer<typeof OpenedArtifact>;
