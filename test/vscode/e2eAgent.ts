// The agent steps of the UI end-to-end test: a scripted OpenAI-protocol model (real HTTP on 127.0.0.1) whose
// first conversation fixes no-secret-caching in the demo and whose every later one keeps calling `finish` with
// an empty summary (refused: extra keys alone would only be ignored with a note), so the interaction matrix that
// follows is inconclusive.
import {
  startScriptedServer,
  type Script,
  type ScriptedServer,
  type ScriptStep,
} from '../support/scriptedOpenAiServer';

const REJECTED_FINISH: ScriptStep = {
  kind: 'tools',
  calls: [{ name: 'finish', arguments: { summary: '' } }],
};

/** The demo's fix (examples/patches/fix-secret-caching.patch) as three `edit` calls, then `finish`. */
const FIX_SECRET_CACHING: ScriptStep[] = [
  {
    kind: 'tools',
    content: 'Never serve or store a response to a request that carries Authorization.',
    calls: [
      {
        name: 'edit',
        arguments: {
          path: 'src/client.js',
          search: '    const cached = this.cache.get(url);',
          replace:
            '    const cacheable = !hasAuthorization(headers);\n    const cached = cacheable ? this.cache.get(url) : undefined;',
        },
      },
    ],
  },
  {
    kind: 'tools',
    calls: [
      {
        name: 'edit',
        arguments: {
          path: 'src/client.js',
          search: '    if (response.status === 200) this.cache.set(url, response);',
          replace: '    if (cacheable && response.status === 200) this.cache.set(url, response);',
        },
      },
    ],
  },
  {
    kind: 'tools',
    calls: [
      {
        name: 'edit',
        arguments: {
          path: 'src/client.js',
          search: 'function lowerCaseNames(headers) {',
          replace:
            "function hasAuthorization(headers) {\n  return Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');\n}\n\nfunction lowerCaseNames(headers) {",
        },
      },
    ],
  },
  {
    kind: 'tools',
    calls: [{ name: 'finish', arguments: { summary: 'Authorized responses bypass the cache.' } }],
  },
];

export const AGENT_STEPS = FIX_SECRET_CACHING.length;

/** The first conversation gets the fix; every other one (and that one, should it resume) a rejected finish. */
export function startAgentModel(): Promise<ScriptedServer> {
  let first = true;
  const fix: Script = {
    matches: () => {
      const take = first;
      first = false;
      return take;
    },
    steps: FIX_SECRET_CACHING,
    after: REJECTED_FINISH,
  };
  const stuck: Script = { matches: () => true, steps: [REJECTED_FINISH] };
  return startScriptedServer({ scripts: [fix, stuck] });
}
