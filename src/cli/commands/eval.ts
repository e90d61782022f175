import type { Verb } from '../verb';

// Placeholder until its issue lands; replaced by the real verb.
export const evalVerb: Verb = {
  name: 'eval',
  summary: '(not built yet)',
  help: 'weave eval: not built yet',
  run() {
    process.stderr.write('weave eval: not built yet\n');
    return Promise.resolve(2);
  },
};
