// The examples are what users start from: each must validate with no errors.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateDefinitionText } from '../../shared/validator/validate-workflow.ts';

const dir = join(import.meta.dirname, '..', '..', 'examples');
const files = readdirSync(dir).filter((f) => f.endsWith('.weft.json'));

describe('examples', () => {
  it('has the six starting points', () => {
    expect(files.length).toBeGreaterThanOrEqual(6);
  });

  it.each(files)('%s validates without errors', (file) => {
    const { workflow, diagnostics } = validateDefinitionText(readFileSync(join(dir, file), 'utf8'));
    expect(workflow?.description?.length ?? 0).toBeGreaterThan(40);
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});
