// The model client's public surface: one OpenAI-compatible chat-completions connection (built from a face's
// settings by modelFromSettings), the answer it reads, its one error type, and the reachability probe. Below
// the agent, the draft and the bench, which all talk to a model through it.
export {
  createModelClient,
  DEFAULT_BASE_URL,
  type ChatMessage,
  type CompletionRequest,
  type ModelClient,
  type ModelConfig,
  type ModelTurn,
  type ResponseFormat,
  type Sampling,
  type ToolSpec,
} from './modelClient';
export { ModelError, type ModelErrorKind } from './modelErrors';
export type { ModelAnswer, ModelUsage, ToolCall } from './modelResponse';
export { modelFromSettings, type ModelSettings } from './modelSettings';
export { PROBE_TIMEOUT_MS, probeModelEndpoint } from './modelProbe';
