// The one way a model client is built from what a face knows about it: the CLI's flags and environment, the
// editor's settings and SecretStorage, a bench cell's --model. Each face only gathers the values into
// ModelSettings; the checks (a model is named, the URL is http(s), a remote endpoint has a key) and the client
// are the same for all of them.
import { createModelClient, type ModelClient, type Sampling } from './modelClient';
import { ModelError } from './modelErrors';

export interface ModelSettings {
  baseUrl: string;
  /** '' or undefined: no model named yet, which is the error `noModel` words. */
  model: string | undefined;
  apiKey: string | undefined;
  /** Ask for a streamed answer (default true). */
  stream?: boolean;
  /** What to tell the user when no model is named: each face names its own place to set it. */
  noModel: string;
  /** A candidate's seed and temperature (`weave agent --candidates`). */
  sampling?: Sampling;
}

/** The model client the settings name; a ModelError when they cannot name one. */
export function modelFromSettings(settings: ModelSettings): ModelClient {
  if (!settings.model) throw new ModelError('unknown-model', settings.noModel);
  return createModelClient({
    baseURL: settings.baseUrl,
    model: settings.model,
    apiKey: settings.apiKey,
    ...(settings.stream === undefined ? {} : { stream: settings.stream }),
    ...(settings.sampling ? { sampling: settings.sampling } : {}),
  });
}
