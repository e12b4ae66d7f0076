// Picks the provider of an agent attempt and finds its key. Keys come only from the engine's
// environment, from the variable `config.apiKeyEnv` names (OPENAI_API_KEY or ANTHROPIC_API_KEY by
// default): never from the definition, so a workflow file in git holds no secret. A key shorter
// than MIN_KEY_LENGTH is refused before anything is sent: it could not be scrubbed from what the
// attempt records without garbling every text that happens to contain it.
import type { z } from 'zod';
import type { AgentConfig } from '../../../shared/definition/step-config.ts';
import type { AgentProvider } from '../../../shared/definition/agent-route.ts';
import type { Schedule } from '../schedule.ts';
import { ANTHROPIC_BASE_URL, AnthropicProvider } from './anthropic-provider.ts';
import { MOCK_MODEL, MockProvider } from './mock-provider.ts';
import { OPENAI_BASE_URL, OpenAiProvider } from './openai-provider.ts';
import type { Fetch } from './post-json.ts';
import type { Provider } from './provider.ts';
import type { AttemptErrorCode } from '../../../shared/events/attempt-error-codes.ts';
import { MIN_KEY_LENGTH } from './scrub-secrets.ts';

export interface ProviderDeps {
  environment: Readonly<Record<string, string | undefined>>;
  fetch: Fetch;
  schedule: Schedule;
  now: () => number;
  maxReplyBytes: number;
}

export type ProviderChoice =
  | { ok: true; provider: Provider; model: string; apiKey: string | undefined }
  | { ok: false; code: AttemptErrorCode; message: string; model: string };

const DEFAULT_KEY_ENV = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' } as const;

export function providerForStep(stepId: string, attempt: number, config: z.infer<typeof AgentConfig> & { provider: AgentProvider }, deps: ProviderDeps): ProviderChoice {
  if (config.provider === 'mock') {
    const model = config.model ?? MOCK_MODEL;
    return { ok: true, provider: new MockProvider(config.mock?.replies ?? [], attempt, deps.schedule), model, apiKey: undefined };
  }
  // The schema requires a model for openai and anthropic; '' only reaches the provider's 400.
  const model = config.model ?? '';
  const keyEnv = config.apiKeyEnv ?? DEFAULT_KEY_ENV[config.provider];
  const apiKey = deps.environment[keyEnv]?.trim() ?? '';
  if (apiKey === '') {
    return {
      ok: false,
      code: 'missing_api_key',
      model,
      message: `agent step "${stepId}" needs an API key for ${config.provider}: set the environment variable ${keyEnv} where the engine runs (the app, weft serve or the weft CLI), or name another variable in config.apiKeyEnv`,
    };
  }
  if (!/^[\x21-\x7e]+$/.test(apiKey)) {
    return {
      ok: false,
      code: 'invalid_api_key',
      model,
      message: `agent step "${stepId}": the environment variable ${keyEnv} holds spaces, control or non-ASCII characters, which no API key has; set it to the key alone`,
    };
  }
  if (apiKey.length < MIN_KEY_LENGTH) {
    return {
      ok: false,
      code: 'invalid_api_key',
      model,
      message: `agent step "${stepId}": the environment variable ${keyEnv} holds a key of ${apiKey.length} characters; keys shorter than ${MIN_KEY_LENGTH} characters are refused, since they cannot be kept out of the run's records without garbling them (no provider issues such keys); set it to the whole key (a local server that needs none accepts any value of ${MIN_KEY_LENGTH} characters or more)`,
    };
  }
  const baseUrl = config.baseUrl ?? (config.provider === 'openai' ? OPENAI_BASE_URL : ANTHROPIC_BASE_URL);
  if (!/^https?:\/\//i.test(baseUrl)) {
    return { ok: false, code: 'invalid_config', model, message: `agent step "${stepId}": config.baseUrl must be an http:// or https:// URL` };
  }
  const options = { baseUrl, apiKey, fetch: deps.fetch, maxReplyBytes: deps.maxReplyBytes, now: deps.now };
  const provider = config.provider === 'openai' ? new OpenAiProvider(options) : new AnthropicProvider(options);
  return { ok: true, provider, model, apiKey };
}
