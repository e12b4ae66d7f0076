// The command list names each command before loading it (engine/cli/command-list.ts): a name
// that drifted from its file's would dispatch `weft NAME` to another command, or to none.
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../engine/cli/command-list.ts';

describe('COMMANDS', () => {
  it('loads, for each name, the command of that name', async () => {
    for (const entry of COMMANDS) expect((await entry.load()).name).toBe(entry.name);
  });

  it('names each command once', () => {
    const names = COMMANDS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
