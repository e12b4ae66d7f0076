// The routes of a workflow's lessons (docs/api.md, "Lessons"): the editor reads them to show on
// their steps, the run page records one from a run. The service reads and writes the lessons file
// beside the workflow file (engine/service/lessons-service.ts); a lesson from a run of another
// workflow is refused here, before anything is written.
import { AddLessonRequest } from '../../shared/api/lessons.ts';
import type { EngineService } from '../service/engine-service.ts';
import { addLesson, lessonsView } from '../service/lessons-service.ts';
import { parseCommand } from '../service/parse-command.ts';
import { ServiceError } from '../service/service-error.ts';
import type { RouteHandlers } from './register-routes.ts';

export function lessonsHandlers(s: EngineService): Pick<RouteHandlers, 'workflows.lessons' | 'workflows.addLesson'> {
  return {
    'workflows.lessons': ({ params }) => lessonsView(s.files, params.id),
    'workflows.addLesson': async ({ params, body }, answer) => {
      const request = parseCommand(AddLessonRequest, body, 'the lesson');
      const run = s.reader.lessonRun(request.runId);
      if (run.workflowId !== params.id) throw new ServiceError('bad-input', `run ${run.runId} is a run of workflow "${run.workflowId}", not "${params.id}"; record the lesson on its own workflow`, 'runId');
      const { lesson: _lesson, ...view } = await addLesson(s.files, run, request, s.defaultActor, s.committedNow());
      answer.status(201);
      return view;
    },
  };
}
