import type { Workflow } from '../../../shared/definition/workflow-schema.ts';

/** A small workflow with a loop, an external step and a join, as plain data. */
export const doc: Workflow = {
  format: 'weft/v1',
  id: 'order-flow',
  version: 3,
  name: 'Order flow',
  input: { type: 'object', properties: { amount: { type: 'number' }, customer: { type: 'string' } } },
  steps: [
    { id: 'quote', kind: 'http', config: { method: 'GET', url: 'https://x/{{ input.amount }}' }, output: { type: 'object', properties: { price: { type: 'number' } } } },
    { id: 'review', kind: 'human', config: { task: 'approve', title: 'Approve' } },
    { id: 'charge', kind: 'http', effect: 'external', config: { method: 'POST', url: 'https://pay' }, retry: { maxAttempts: 3 }, compensation: 'refund' },
    { id: 'refund', kind: 'script', config: { module: 'refund.js' } },
    { id: 'pick', kind: 'router' },
    { id: 'both', kind: 'join', config: { mode: 'subset', branches: ['charge', 'review'] } },
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { id: 'e1', from: 'quote', to: 'review' },
    { id: 'e2', from: 'review', to: 'charge', when: 'output.ok' },
    { id: 'e3', from: 'review', to: 'quote', on: 'rejected', maxTraversals: 3 },
    { id: 'e4', from: 'charge', to: 'both' },
    { id: 'e5', from: 'both', to: 'done' },
  ],
  layout: { quote: { x: 0, y: 0 }, charge: { x: 10, y: 0 } },
};
