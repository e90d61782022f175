// The one table of CLI verbs, in the order `weave --help` lists them.
import type { Verb } from './verb';
import { initVerb } from './commands/init';
import { validateVerb } from './commands/validate';
import { checkVerb } from './commands/check';
import { indexVerb } from './commands/index';
import { affectedVerb } from './commands/affected';
import { graphVerb } from './commands/graph';
import { blameVerb } from './commands/blame';
import { agentVerb } from './commands/agent';
import { exportVerb } from './commands/export';
import { evalVerb } from './commands/eval';
import { mcpVerb } from './commands/mcp';
import { guardVerb } from './commands/guard';
import { auditVerb } from './commands/audit';
import { draftVerb } from './commands/draft';
import { benchVerb } from './commands/bench';
import { mineVerb } from './commands/mine';

export const verbs: Verb[] = [
  initVerb,
  validateVerb,
  checkVerb,
  indexVerb,
  affectedVerb,
  graphVerb,
  blameVerb,
  agentVerb,
  exportVerb,
  evalVerb,
  mcpVerb,
  guardVerb,
  auditVerb,
  draftVerb,
  benchVerb,
  mineVerb,
];
