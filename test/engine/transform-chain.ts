// The workflow the store and cursor tests run: `n` transforms in a line, then the end. Each step
// writes `{"i": <its index>}`, so every run commits a known number of events with no executor.

/** A weft/v1 workflow `id` of `n` transform steps s0…s(n-1) in a chain, ending at `done`. */
export const transformChain = (id: string, n: number) => ({
  format: 'weft/v1',
  id,
  version: 1,
  name: id,
  steps: [
    ...Array.from({ length: n }, (_, i) => ({ id: `s${i}`, kind: 'transform', config: { expression: `{"i": ${i}}` } })),
    { id: 'done', kind: 'end' },
  ],
  edges: Array.from({ length: n }, (_, i) => ({ id: `e${i}`, from: `s${i}`, to: i === n - 1 ? 'done' : `s${i + 1}` })),
});
