// A workflow that sends a quote (an external command step that appends a line to quotes.log in
// `dir`, so every effect is visible) after pricing it: for revision tests.
import { join } from 'node:path';
import { end, wf } from './harness.ts';

export const quoteFlow = (dir: string, sendExtra: Record<string, unknown> = {}) =>
  wf('quote', [
    { id: 'price', kind: 'transform', config: { expression: '{"customer": input.customer, "cents": input.qty * 250}' } },
    {
      id: 'send_quote',
      kind: 'command',
      effect: 'external',
      onExhausted: 'escalate',
      input: 'steps.price.output',
      config: { argv: ['sh', '-c', `read l; echo "$l" >> '${join(dir, 'quotes.log')}'; echo '{"sent": true}'`] },
      ...sendExtra,
    },
    { id: 'file_it', kind: 'transform', config: { expression: '{"filed": input.customer}' } },
    end(),
  ], [
    { id: 'priced', from: 'price', to: 'send_quote' },
    { id: 'quoted', from: 'send_quote', to: 'file_it' },
    { id: 'filed', from: 'file_it', to: 'done' },
  ]);
