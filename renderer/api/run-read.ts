// What the run page reads from GET /api/runs/:id: the restart record and the run's definition
// snapshot (further fields, such as permitted actions, are kept as they come).
import { z } from 'zod';
import { RestartRecord } from '../../shared/api/restart-record.ts';
import { Workflow } from '../../shared/definition/workflow-schema.ts';

export const RunRead = RestartRecord.extend({ definition: Workflow.optional() }).loose();
export type RunRead = z.infer<typeof RunRead>;
