import { describe, expect, it } from 'vitest';
import { isWithin } from '../../../renderer/editor/inspector/field-site.ts';

describe('which findings belong to a field', () => {
  it('takes the field itself and what lies inside it, not its neighbours', () => {
    expect(isWithin('$.steps[2].input', '$.steps[2].input')).toBe(true);
    expect(isWithin('$.input.properties.x', '$.input')).toBe(true);
    expect(isWithin('$.steps[2].output.required[0]', '$.steps[2].output')).toBe(true);
    expect(isWithin('$.steps[2].inputs', '$.steps[2].input')).toBe(false);
    expect(isWithin('$.steps[12].input', '$.steps[1]')).toBe(false);
    expect(isWithin('$.steps[1]', '$.steps[1].input')).toBe(false);
  });
});
