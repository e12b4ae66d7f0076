// The script of a replay (`weft replay --script FILE`, a request's `script`): scripted outcomes by
// step id, the schema of a scenario's `steps`, answering calls that have no recording. Kept apart
// from shared/api/replay-result.ts: it parses JSONata conditions, which the app's bundle leaves out.
import { z } from 'zod';
import { CaseOutcome, PlainOutcome } from './scripted-outcome-schema.ts';

export const ReplayScript = z.record(z.string(), z.array(z.union([PlainOutcome, CaseOutcome])).min(1));
export type ReplayScript = z.infer<typeof ReplayScript>;
