// The `mock` provider: deterministic, scripted by `config.mock.replies`, for demos and tests.
// Attempt N of an activation uses reply N, and the last reply repeats, so a script reads as the
// story of the retries: "malformed, then rate limited, then a good answer". Nothing here looks at
// the prompt or the temperature, so a retry variant changes the story only through the attempt
// number (or by replacing `mock` itself).
import type { z } from 'zod';
import type { MockReply } from '../../../shared/definition/agent-route.ts';
import type { Schedule } from '../schedule.ts';
import { ProviderError, type Completion, type CompletionRequest, type Provider } from './provider.ts';
import { AuthorErrorCode } from '../../../shared/events/attempt-error-codes.ts';

type Reply = z.infer<typeof MockReply>;

export const MOCK_MODEL = 'mock';

export class MockProvider implements Provider {
  constructor(
    private readonly replies: readonly Reply[],
    private readonly attempt: number,
    private readonly schedule: Schedule,
  ) {}

  async complete(request: CompletionRequest, signal: AbortSignal): Promise<Completion> {
    const index = Math.max(0, Math.min(this.attempt, this.replies.length) - 1);
    const reply = this.replies[index];
    if (reply === undefined) throw new ProviderError({ code: 'malformed_reply', message: 'config.mock.replies is empty', retryable: false });
    if (reply.delayMs !== undefined && reply.delayMs > 0) await delay(reply.delayMs, signal, this.schedule);
    if (reply.error !== undefined) {
      const { code, message, status, retryAfterMs } = reply.error;
      const clientError = status !== undefined && status >= 400 && status < 500 && status !== 429;
      throw new ProviderError({
        code: AuthorErrorCode.parse(code),
        message: `mock reply ${index + 1}: ${message}`,
        retryable: !clientError,
        ...(status === undefined ? {} : { status }),
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      });
    }
    const completion: Completion = { text: replyText(reply, request.json), model: request.model };
    if (reply.usage !== undefined) completion.usage = { ...reply.usage };
    return completion;
  }
}

/** `output` is what the model "said" as JSON; a string output of a text step is the text itself. */
function replyText(reply: Reply, json: boolean): string {
  if (reply.text !== undefined) return reply.text;
  if (!('output' in reply)) return '';
  if (!json && typeof reply.output === 'string') return reply.output;
  return JSON.stringify(reply.output ?? null);
}

/** Waits `ms`; rejects with the signal's reason as soon as it is aborted. */
function delay(ms: number, signal: AbortSignal, schedule: Schedule): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      timer.cancel();
      reject(signal.reason);
    };
    const timer = schedule(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
