// The small parts around processes: which variables are inherited, and how output tails are cut.
import { describe, expect, it } from 'vitest';
import { inheritedEnv } from '../../../engine/executors/inherited-env.ts';
import { TailBuffer } from '../../../engine/executors/tail-buffer.ts';

describe('inheritedEnv', () => {
  it('keeps only the variables programs need to run', () => {
    const source = { PATH: '/bin', HOME: '/home/a', LANG: 'C.UTF-8', OPENAI_API_KEY: 'sk-1', AWS_SECRET_ACCESS_KEY: 'x', TMPDIR: undefined };
    expect(inheritedEnv(source, 'linux')).toEqual({ PATH: '/bin', HOME: '/home/a', LANG: 'C.UTF-8' });
  });

  it('matches names case-insensitively on Windows, keeping their spelling', () => {
    expect(inheritedEnv({ Path: 'C:\\bin', SystemRoot: 'C:\\Windows', Secret: 'x' }, 'win32')).toEqual({ Path: 'C:\\bin', SystemRoot: 'C:\\Windows' });
  });
});

describe('TailBuffer', () => {
  it('keeps everything below the limit', () => {
    const tail = new TailBuffer(100);
    tail.push(Buffer.from('first\n'));
    tail.push(Buffer.from('second\n'));
    expect(tail.text()).toBe('first\nsecond');
  });

  it('keeps the last bytes and marks the cut', () => {
    const tail = new TailBuffer(10);
    for (let i = 0; i < 50; i++) tail.push(Buffer.from(`line ${i}\n`));
    expect(tail.text()).toBe('…8\nline 49');
  });

  it('does not start with half a character', () => {
    const tail = new TailBuffer(5);
    tail.push(Buffer.from('ab€€'));
    expect(tail.text()).toBe('…€');
  });
});
