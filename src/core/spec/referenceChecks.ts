// Checks zod cannot express, run on the raw JSON value so they report alongside schema errors: the rules between
// specs (src/shared/crossSpecRules.ts: duplicate ids, unknown and self references, dependsOn cycles), worded here
// with file positions, and each spec's anchor and path syntax and suspicious timeouts.
import { posix } from 'node:path';
import { CROSS_SPEC_SEVERITY, crossSpecFindings, type CrossSpecFinding } from '../../shared/crossSpecRules';
import { anchorProblem, relativePathProblem } from './anchors';
import type { JsonPath } from './locations';
import type { ProblemCollector } from './problemCollector';
import { closestMatch } from './suggest';

/** Shorter than this, a spec test can hardly start Node, let alone run: almost certainly a unit mix-up. */
const MIN_SENSIBLE_TIMEOUT_SECONDS = 1;

interface RawSpec {
  index: number;
  value: Record<string, unknown>;
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

  const findings = crossSpecFindings(value.specs);
  const knownIds = [
    ...new Set(value.specs.flatMap((s: unknown) => (isRecord(s) && typeof s.id === 'string' ? [s.id] : []))),
  ];
  const report = (finding: CrossSpecFinding): void => {
    const [path, message] = located(finding, knownIds, collector);
    collector.add(path, message, { severity: CROSS_SPEC_SEVERITY[finding.rule] });
  };
  for (const finding of findings) if (finding.rule === 'duplicate-id') report(finding);
  const specs: RawSpec[] = value.specs.flatMap((spec: unknown, index) =>
    isRecord(spec) ? [{ index, value: spec }] : [],
  );
  for (const spec of specs) {
    for (const finding of findings) if (isReference(finding) && finding.spec === spec.index) report(finding);
    checkAnchors(spec, collector);
    checkTest(spec, collector);
  }
  for (const finding of findings) if (finding.rule === 'dependency-cycle') report(finding);
}

function isReference(finding: CrossSpecFinding): boolean {
  return finding.rule !== 'duplicate-id' && finding.rule !== 'dependency-cycle';
}

/** Where in the file a finding is reported, and its message there. */
function located(
  finding: CrossSpecFinding,
  knownIds: readonly string[],
  collector: ProblemCollector,
): [JsonPath, string] {
  switch (finding.rule) {
    case 'duplicate-id': {
      const line = collector.lineOf(['specs', finding.firstUse, 'id']);
      return [
        ['specs', finding.spec, 'id'],
        `duplicate id "${finding.id}" (first used by specs[${finding.firstUse}], line ${line})`,
      ];
    }
    case 'self-reference':
      return [
        ['specs', finding.spec, finding.relation, finding.entry],
        finding.relation === 'dependsOn'
          ? `spec "${finding.id}" depends on itself`
          : `spec "${finding.id}" lists itself in interactsWith`,
      ];
    case 'unknown-reference': {
      const suggestion = closestMatch(finding.target, knownIds);
      const hint = suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`;
      return [
        ['specs', finding.spec, finding.relation, finding.entry],
        `${finding.relation} names unknown spec "${finding.target}"${hint}`,
      ];
    }
    case 'repeated-reference':
      return [
        ['specs', finding.spec, finding.relation, finding.entry],
        `"${finding.target}" is listed twice in ${finding.relation}`,
      ];
    case 'dependency-cycle':
      return [
        ['specs', finding.spec, 'dependsOn', ...(finding.entry === undefined ? [] : [finding.entry])],
        `dependsOn cycle: ${finding.cycle.join(' → ')} (a cycle can never run: remove one of these dependencies)`,
      ];
  }
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
