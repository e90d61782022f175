import type { Verb } from '../verb';

// Placeholder until its issue lands; replaced by the real verb.
export const validateVerb: Verb = {
  name: 'validate',
  summary: '(not built yet)',
  help: 'weave validate: not built yet',
  run() {
    process.stderr.write('weave validate: not built yet\n');
    return Promise.resolve(2);
  },
};
