// Turns zod issues into located problems with messages written for the person editing the file.
import type { z } from 'zod';
import type { JsonPath } from './locations';
import type { ProblemCollector } from './problemCollector';
import {
  specDefaultsSchema,
  specFileSchema,
  specSchema,
  specSetupSchema,
  specTestSchema,
} from '../../shared/specSchema';
import { closestMatch } from './suggest';

type Issue = z.core.$ZodIssue;

/** Zod's built-in messages start like this; anything else was written in specSchema.ts and is kept as is. */
const DEFAULT_MESSAGE = /^(Invalid|Too small|Too big|Unrecognized|Expected)/;

export function reportSchemaIssues(
  issues: readonly Issue[],
  value: unknown,
  collector: ProblemCollector,
): void {
  for (const issue of issues) {
    const path = issue.path.filter((s): s is string | number => typeof s !== 'symbol');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        collector.add([...path, key], unknownKeyMessage(key, path), { at: 'key' });
      }
      continue;
    }
    if (path.length > 0 && !collector.exists(path) && collector.exists(path.slice(0, -1))) {
      const field = path[path.length - 1];
      collector.add(path, typeof field === 'string' ? `missing required field "${field}"` : 'missing value');
      continue;
    }
    collector.add(path, messageFor(issue, valueAt(value, path)));
  }
}

function messageFor(issue: Issue, actual: unknown): string {
  if (!DEFAULT_MESSAGE.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${article(issue.expected)}, got ${describe(actual)}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}, got ${describe(actual)}`
        : `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}; got ${describe(actual)}`;
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'must not be empty';
      if (issue.origin === 'array') return `must have at least ${String(issue.minimum)} item(s)`;
      return `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${String(issue.maximum)} characters`;
      if (issue.origin === 'array') return `must have at most ${String(issue.maximum)} item(s)`;
      return `must be at most ${String(issue.maximum)}`;
    case 'invalid_format':
      return `${describe(actual)} does not have the expected format`;
    default:
      return issue.message;
  }
}

function unknownKeyMessage(key: string, objectPath: JsonPath): string {
  const allowed = allowedKeys(objectPath);
  const suggestion = closestMatch(key, allowed);
  const hint = suggestion === undefined ? `allowed: ${allowed.join(', ')}` : `did you mean "${suggestion}"?`;
  return `unknown field "${key}" (${hint})`;
}

function allowedKeys(objectPath: JsonPath): string[] {
  const shape =
    objectPath.length === 0
      ? specFileSchema.shape
      : objectPath.length === 1 && objectPath[0] === 'defaults'
        ? specDefaultsSchema.shape
        : objectPath.length === 1 && objectPath[0] === 'setup'
          ? specSetupSchema.shape
          : objectPath.length === 2 && objectPath[0] === 'specs'
            ? specSchema.shape
            : objectPath.length === 3 && objectPath[0] === 'specs' && objectPath[2] === 'test'
              ? specTestSchema.shape
              : {};
  return Object.keys(shape);
}

function valueAt(value: unknown, path: JsonPath): unknown {
  let current = value;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  if (typeof value === 'object') return 'an object';
  return typeof value;
}
