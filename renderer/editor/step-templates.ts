// What a new step of each kind starts as: the smallest config the format accepts, with values
// that show the author what goes where. The validator then says what is still missing.
import type { Step } from '../../shared/definition/workflow-schema.ts';
import type { StepKind } from '../../shared/definition/names.ts';

export function newStep(kind: StepKind, id: string): Step {
  switch (kind) {
    case 'agent':
      return { id, kind, config: { provider: 'openai', model: 'gpt-4.1-mini', apiKeyEnv: 'OPENAI_API_KEY', prompt: 'Summarise {{ input }}' } };
    case 'script':
      return { id, kind, config: { module: `scripts/${id}.js` } };
    case 'command':
      return { id, kind, config: { argv: ['echo', 'hello'] } };
    case 'http':
      return { id, kind, config: { method: 'GET', url: 'https://example.com/' } };
    case 'human':
      return { id, kind, config: { task: 'approve', title: 'Approve' } };
    case 'wait':
      return { id, kind, config: { durationMs: 60_000 } };
    case 'event':
      return { id, kind, config: { name: 'event_name', correlationKey: '$string(run.id)' } };
    case 'router':
      return { id, kind };
    case 'join':
      return { id, kind, config: { mode: 'all' } };
    case 'map':
      return { id, kind, config: { items: '[]', workflow: { id: 'child-workflow', version: 1 } } };
    case 'subworkflow':
      return { id, kind, config: { workflow: { id: 'child-workflow', version: 1 } } };
    case 'transform':
      return { id, kind, config: { expression: 'input' } };
    case 'end':
      return { id, kind };
  }
}

/** What each kind is for, as the palette says it. */
export const KIND_BLURB: Record<StepKind, string> = {
  agent: 'One LLM call',
  script: 'A function from a workspace module',
  command: 'A local process',
  http: 'One HTTP request',
  human: 'A task for a person',
  wait: 'A timer',
  event: 'Wait for a correlated event',
  router: 'Pick one outgoing edge',
  join: 'Wait for several branches',
  map: 'Run a workflow per list item',
  subworkflow: 'Run another workflow',
  transform: 'Reshape data with JSONata',
  end: 'Finish the run',
};
