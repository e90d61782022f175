// Scripted model behaviour over the demo workspace: the tool calls a competent (or a careless) agent would
// make, replayed by the scripted OpenAI-protocol server.
import type { ScriptStep } from '../../support/scriptedOpenAiServer';

/** Fixes no-secret-caching the way examples/patches/fix-secret-caching.patch does, through real edits. */
export function fixSecretCachingSteps(): ScriptStep[] {
  return [
    {
      kind: 'tools',
      calls: [
        { name: 'find_symbol', arguments: { name: 'Client.get' } },
        { name: 'read_file', arguments: { path: 'src/client.js' } },
      ],
    },
    {
      kind: 'tools',
      content: 'Bypass the cache for requests that carry an Authorization header.',
      calls: [
        {
          name: 'edit',
          arguments: {
            path: 'src/client.js',
            search: '    const cached = this.cache.get(url);',
            replace:
              '    // A signed-in response belongs to one user: bypass the cache entirely.\n' +
              '    const cacheable = !hasAuthorization(headers);\n' +
              '    const cached = cacheable ? this.cache.get(url) : undefined;',
          },
        },
        {
          name: 'edit',
          arguments: {
            path: 'src/client.js',
            search: 'if (response.status === 200) this.cache.set(url, response);',
            replace: 'if (cacheable && response.status === 200) this.cache.set(url, response);',
          },
        },
        {
          name: 'edit',
          arguments: {
            path: 'src/client.js',
            search: 'function lowerCaseNames(headers) {',
            replace:
              'function hasAuthorization(headers) {\n' +
              "  return Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');\n" +
              '}\n\nfunction lowerCaseNames(headers) {',
          },
        },
      ],
    },
    { kind: 'tools', calls: [{ name: 'run_specs', arguments: {} }] },
    {
      kind: 'tools',
      calls: [{ name: 'finish', arguments: { summary: 'Authorized requests bypass the cache.' } }],
    },
  ];
}

/** "Fixes" no-secret-caching by never caching anything: the secret spec passes, cache-hit and hit-rate break. */
export function disableCacheSteps(): ScriptStep[] {
  return [
    {
      kind: 'tools',
      calls: [
        {
          name: 'edit',
          arguments: {
            path: 'src/client.js',
            search: 'if (response.status === 200) this.cache.set(url, response);',
            replace: '// Never cache: nothing secret can leak.',
          },
        },
      ],
    },
    { kind: 'tools', calls: [{ name: 'finish', arguments: { summary: 'Caching disabled.' } }] },
  ];
}

export function finishOnlySteps(summary = 'Nothing to do: the spec already passes.'): ScriptStep[] {
  return [{ kind: 'tools', calls: [{ name: 'finish', arguments: { summary } }] }];
}

/** A model review that calls every listed spec satisfied. */
export function reviewAnswer(
  ids: string[],
  verdict: 'satisfied' | 'violated' | 'unclear' = 'satisfied',
): ScriptStep {
  return {
    kind: 'text',
    content: JSON.stringify({ specs: ids.map((id) => ({ id, verdict, evidence: `src/client.js (${id})` })) }),
  };
}
