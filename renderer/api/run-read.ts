// What the run page reads from GET /api/runs/:id: the run's RunDetail (the restart record, the
// permitted actions, the attempt details) with its definition snapshot. The engine builds it with
// shared/run/run-detail.ts; the app parses it with the same schema.
import { RunDetail } from '../../shared/api/run-detail.ts';

export const RunRead = RunDetail;
export type RunRead = RunDetail;
