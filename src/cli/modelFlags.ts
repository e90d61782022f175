// The model flags `weave agent`, `weave draft` and `weave bench` share: which OpenAI-compatible endpoint and
// model (flags first, then the environment), the key (only ever from the environment), and the budgets.
import {
  DEFAULT_BASE_URL,
  ModelError,
  modelFromSettings,
  type ModelClient,
  type ModelSettings,
} from '../core/model';
import type { AgentBudgets } from '../core/agent/runAgent';
import { UsageError, wholeNumberFlags } from './flags';

export const MODEL_FLAGS = {
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'no-stream': { type: 'boolean', default: false },
} as const;

export const BUDGET_FLAGS = {
  'max-steps': { type: 'string' },
  'max-tokens': { type: 'string' },
  'timeout-seconds': { type: 'string' },
} as const;

export interface ModelFlagValues {
  'base-url'?: string | undefined;
  model?: string | undefined;
  'no-stream': boolean;
}

type BudgetFlagValues = Partial<Record<keyof typeof BUDGET_FLAGS, string>>;

/** $WEAVE_API_KEY, else $OPENAI_API_KEY: never a flag, so it stays out of shell history and process lists. */
export function apiKeyFromEnvironment(): string | undefined {
  return process.env.WEAVE_API_KEY || process.env.OPENAI_API_KEY || undefined;
}

/** --base-url, else $WEAVE_BASE_URL, else $OPENAI_BASE_URL, else `fallback`. */
export function baseUrlFrom(flag: string | undefined, fallback: string = DEFAULT_BASE_URL): string {
  return flag ?? process.env.WEAVE_BASE_URL ?? process.env.OPENAI_BASE_URL ?? fallback;
}

/** The given budget flags as AgentBudgets; a UsageError names the first that is not a whole number ≥ 1. */
export function budgetsFromFlags(verb: string, flags: BudgetFlagValues): Partial<AgentBudgets> {
  const numbers = wholeNumberFlags(verb, flags, ['max-steps', 'max-tokens', 'timeout-seconds']);
  return budgetsOf(numbers);
}

export function budgetsOf(
  numbers: Partial<Record<keyof typeof BUDGET_FLAGS, number>>,
): Partial<AgentBudgets> {
  return {
    ...(numbers['max-steps'] !== undefined ? { maxSteps: numbers['max-steps'] } : {}),
    ...(numbers['max-tokens'] !== undefined ? { maxTokens: numbers['max-tokens'] } : {}),
    ...(numbers['timeout-seconds'] !== undefined ? { timeoutSeconds: numbers['timeout-seconds'] } : {}),
  };
}

/** The model the flags and the environment name (--model, else $WEAVE_MODEL), in the core's terms. */
export function modelSettingsFromFlags(flags: ModelFlagValues): ModelSettings {
  return {
    baseUrl: baseUrlFrom(flags['base-url']),
    model: flags.model ?? process.env.WEAVE_MODEL,
    apiKey: apiKeyFromEnvironment(),
    stream: !flags['no-stream'],
    noModel: 'no model: pass --model NAME or set WEAVE_MODEL',
  };
}

/** The model client the flags and the environment name, and the key (to redact); bad set-up is a UsageError. */
export function modelClientFromFlags(flags: ModelFlagValues): {
  client: ModelClient;
  apiKey: string | undefined;
} {
  const settings = modelSettingsFromFlags(flags);
  try {
    return { client: modelFromSettings(settings), apiKey: settings.apiKey };
  } catch (error) {
    if (error instanceof ModelError) throw new UsageError(error.message);
    throw error;
  }
}
