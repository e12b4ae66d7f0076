// AttemptMeta is defined once, in shared/: the events, the read models and the executors use that
// one schema, so a field added to it reaches the log, the API and the UI together.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AttemptMeta } from '../../shared/events/attempt-meta.ts';
import { EVENT_DATA } from '../../shared/events/run-event.ts';
import { AttemptDetail } from '../../shared/api/run-detail.ts';

const root = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f));
}

describe('AttemptMeta', () => {
  it('is the schema of every event that carries meta and of the attempt read model', () => {
    expect(EVENT_DATA.attempt_succeeded.shape.meta.unwrap()).toBe(AttemptMeta);
    expect(EVENT_DATA.attempt_failed.shape.meta.unwrap()).toBe(AttemptMeta);
    expect(EVENT_DATA.attempt_unknown.shape.meta.unwrap()).toBe(AttemptMeta);
    expect(AttemptDetail.shape.meta.unwrap()).toBe(AttemptMeta);
  });

  it('is declared in exactly one file', () => {
    const declaring = [...sources('shared'), ...sources('engine')].filter((f) =>
      /\b(interface|type|const)\s+AttemptMeta\b\s*[={<]/.test(readFileSync(join(root, f), 'utf8')),
    );
    expect(declaring).toEqual([join('shared', 'events', 'attempt-meta.ts')]);
  });

  it('rejects a meta whose usage is not numbers, naming the path', () => {
    const r = AttemptMeta.safeParse({ usage: { inputTokens: 'ten', outputTokens: 1 } });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['usage', 'inputTokens']);
    expect(AttemptMeta.parse({ provider: 'mock', model: 'm', latencyMs: 3, status: 200, retryAfterMs: 10 })).toEqual({
      provider: 'mock',
      model: 'm',
      latencyMs: 3,
      status: 200,
      retryAfterMs: 10,
    });
  });
});
