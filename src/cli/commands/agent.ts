import type { Verb } from '../verb';

// Placeholder until its issue lands; replaced by the real verb.
export const agentVerb: Verb = {
  name: 'agent',
  summary: '(not built yet)',
  help: 'weave agent: not built yet',
  run() {
    process.stderr.write('weave agent: not built yet\n');
    return Promise.resolve(2);
  },
};
