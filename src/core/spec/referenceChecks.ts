// Checks zod cannot express, run on the raw JSON value so they report alongside schema errors: duplicate ids,
// references to unknown ids, self-references, dependsOn cycles, anchor and path syntax, suspicious timeouts.
import { posix } from 'node:path';
import { anchorProblem, relativePathProblem } from './anchors';
import { findDependencyCycles } from './graph';
import type { ProblemCollector } from './problemCollector';
import { closestMatch } from './suggest';

const RELATIONS = ['dependsOn', 'interactsWith'] as const;
/** Shorter than this, a spec test can hardly start Node, let alone run: almost certainly a unit mix-up. */
const MIN_SENSIBLE_TIMEOUT_SECONDS = 1;

interface RawSpec {
  index: number;
  value: Record<string, unknown>;
  id: string | undefined;
}

export function reportReferenceProblems(value: unknown, collector: ProblemCollector): void {
  if (!isRecord(value)) return;
  checkDefaults(value.defaults, collector);
  if (!Array.isArray(value.specs)) return;
  if (value.specs.length === 0) {
    collector.add(['specs'], 'no specs yet: add one, or run `weave init` for a starter', {
      severity: 'warning',
    });
  }

  const specs: RawSpec[] = value.specs.flatMap((spec: unknown, index) =>
    isRecord(spec) ? [{ index, value: spec, id: typeof spec.id === 'string' ? spec.id : undefined }] : [],
  );
  const firstIndexById = new Map<string, number>();
  for (const spec of specs) {
    if (spec.id === undefined) continue;
    const first = firstIndexById.get(spec.id);
    if (first === undefined) {
      firstIndexById.set(spec.id, spec.index);
      continue;
    }
    const line = collector.lineOf(['specs', first, 'id']);
    collector.add(
      ['specs', spec.index, 'id'],
      `duplicate id "${spec.id}" (first used by specs[${first}], line ${line})`,
    );
  }

  const knownIds = [...firstIndexById.keys()];
  for (const spec of specs) {
    for (const relation of RELATIONS) checkReferences(spec, relation, knownIds, collector);
    checkAnchors(spec, collector);
    checkTest(spec, collector);
  }

  const graphInput = specs.flatMap((spec) =>
    spec.id === undefined || firstIndexById.get(spec.id) !== spec.index
      ? []
      : [{ id: spec.id, dependsOn: stringsOf(spec.value.dependsOn) }],
  );
  for (const cycle of findDependencyCycles(graphInput)) {
    const [from, to] = cycle;
    const fromIndex = from === undefined ? undefined : firstIndexById.get(from);
    if (fromIndex === undefined || to === undefined) continue;
    const dependsOn = specs.find((s) => s.index === fromIndex)?.value.dependsOn;
    const entry = Array.isArray(dependsOn) ? dependsOn.indexOf(to) : -1;
    collector.add(
      ['specs', fromIndex, 'dependsOn', ...(entry === -1 ? [] : [entry])],
      `dependsOn cycle: ${cycle.join(' → ')} (a cycle can never run: remove one of these dependencies)`,
    );
  }
}

function checkReferences(
  spec: RawSpec,
  relation: (typeof RELATIONS)[number],
  knownIds: readonly string[],
  collector: ProblemCollector,
): void {
  const list = spec.value[relation];
  if (!Array.isArray(list)) return;
  const seen = new Set<string>();
  list.forEach((target: unknown, i) => {
    if (typeof target !== 'string') return;
    const path = ['specs', spec.index, relation, i];
    if (target === spec.id) {
      collector.add(
        path,
        relation === 'dependsOn'
          ? `spec "${target}" depends on itself`
          : `spec "${target}" lists itself in interactsWith`,
      );
    } else if (!knownIds.includes(target)) {
      const suggestion = closestMatch(target, knownIds);
      const hint = suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`;
      collector.add(path, `${relation} names unknown spec "${target}"${hint}`);
    } else if (seen.has(target)) {
      collector.add(path, `"${target}" is listed twice in ${relation}`, { severity: 'warning' });
    }
    seen.add(target);
  });
}

function checkAnchors(spec: RawSpec, collector: ProblemCollector): void {
  const anchors = spec.value.anchors;
  if (!Array.isArray(anchors)) return;
  anchors.forEach((anchor: unknown, i) => {
    if (typeof anchor !== 'string' || anchor === '') return; // the schema reports those
    const problem = anchorProblem(anchor);
    if (problem !== undefined) collector.add(['specs', spec.index, 'anchors', i], problem);
  });
}

function checkTest(spec: RawSpec, collector: ProblemCollector): void {
  const test = spec.value.test;
  if (!isRecord(test)) return;
  const base = ['specs', spec.index, 'test'];
  if (Array.isArray(test.files)) {
    test.files.forEach((file: unknown, i) => {
      if (typeof file !== 'string' || file === '') return;
      const problem = relativePathProblem(file);
      if (problem !== undefined) collector.add([...base, 'files', i], `test file ${problem}`);
    });
  }
  if (typeof test.command === 'string' && test.command.includes('\0')) {
    collector.add([...base, 'command'], NUL_MESSAGE('command'));
  }
  checkEnv(test.env, [...base, 'env'], collector);
  checkCwd(test.cwd, [...base, 'cwd'], collector);
  checkTimeout(test.timeoutSeconds, [...base, 'timeoutSeconds'], collector);
}

/** No process can be given a NUL byte in its command line or environment: the OS strings end there. */
const NUL_MESSAGE = (what: string): string =>
  `${what} contains a NUL character (\\u0000), which no command or environment can carry: remove it`;

function checkEnv(env: unknown, path: (string | number)[], collector: ProblemCollector): void {
  if (!isRecord(env)) return;
  for (const [name, value] of Object.entries(env)) {
    if (name.includes('\0'))
      collector.add([...path, name], NUL_MESSAGE(`env variable name "${name.replace(/\0/g, '\\u0000')}"`), {
        at: 'key',
      });
    else if (name === '' || name.includes('='))
      collector.add([...path, name], `env variable name "${name}" must be non-empty and without '='`, {
        at: 'key',
      });
    if (typeof value === 'string' && value.includes('\0'))
      collector.add([...path, name], NUL_MESSAGE(`env ${name}`));
  }
}

function checkDefaults(defaults: unknown, collector: ProblemCollector): void {
  if (!isRecord(defaults)) return;
  checkEnv(defaults.env, ['defaults', 'env'], collector);
  checkCwd(defaults.cwd, ['defaults', 'cwd'], collector);
  checkTimeout(defaults.timeoutSeconds, ['defaults', 'timeoutSeconds'], collector);
}

function checkCwd(cwd: unknown, path: (string | number)[], collector: ProblemCollector): void {
  // Tests run in throw-away checkouts of the workspace too (baselines, agents, sandboxes): a cwd outside the
  // workspace would run them in the user's own tree, or nowhere.
  if (typeof cwd !== 'string' || cwd === '') return;
  if (cwd.startsWith('/') || /^[A-Za-z]:[\\/]/.test(cwd) || cwd.startsWith('\\\\')) {
    collector.add(path, `cwd "${cwd}" is absolute: write it relative to the workspace folder`);
  } else if (posix.normalize(cwd.replace(/\\/g, '/')).split('/')[0] === '..') {
    collector.add(
      path,
      `cwd "${cwd}" leaves the workspace folder: tests run inside it (move .weave/ up instead)`,
    );
  } else if (cwd.includes('\0')) {
    collector.add(path, NUL_MESSAGE('cwd'));
  }
}

function checkTimeout(timeout: unknown, path: (string | number)[], collector: ProblemCollector): void {
  if (typeof timeout === 'number' && timeout > 0 && timeout < MIN_SENSIBLE_TIMEOUT_SECONDS) {
    collector.add(
      path,
      `timeoutSeconds is ${timeout}: seconds, not milliseconds? Most tests need more than 1 s`,
      {
        severity: 'warning',
      },
    );
  }
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
