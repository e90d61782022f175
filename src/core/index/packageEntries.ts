// What package.json names: the files its `exports` / `imports` map a subpath to (string, subpath map, `*`
// patterns, nested conditions), and how a bare specifier splits into package name and subpath.

/** Condition keys that name no file run at runtime. */
const typeOnlyConditions = new Set(['types', 'typings']);

/** A file a package.json entry names; `condition` when only loaders matching it take it. */
export interface Leaf {
  target: string;
  condition?: string;
}

/** Conditions every loader (require and import alike) matches. */
const universalConditions = new Set(['default', 'node']);

/** Files a package.json `exports` (or `imports`) field maps `subpath` to, over every condition. */
export function exportLeaves(field: unknown, subpath: string): Leaf[] {
  if (field === undefined || field === null) return [];
  if (typeof field === 'string' || Array.isArray(field)) return subpath === '.' ? conditionLeaves(field) : [];
  if (typeof field !== 'object') return [];
  const entries = Object.entries(field as Record<string, unknown>);
  const isSubpathMap = entries.some(([k]) => k.startsWith('.') || k.startsWith('#'));
  if (!isSubpathMap) return subpath === '.' ? conditionLeaves(field) : [];
  const exact = entries.find(([k]) => k === subpath);
  if (exact) return conditionLeaves(exact[1]);
  for (const [key, value] of entries) {
    const star = key.indexOf('*');
    if (star === -1) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (subpath.startsWith(prefix) && subpath.endsWith(suffix) && subpath.length >= key.length - 1) {
      const match = subpath.slice(prefix.length, subpath.length - suffix.length);
      return conditionLeaves(value).map((l) => ({ ...l, target: l.target.split('*').join(match) }));
    }
  }
  return [];
}

/** Every file a conditions value can pick (require, import, node, default, …): all of them, to be safe. */
function conditionLeaves(value: unknown, condition?: string): Leaf[] {
  if (typeof value === 'string')
    return [condition === undefined ? { target: value } : { target: value, condition }];
  if (Array.isArray(value)) return value.flatMap((v) => conditionLeaves(v, condition));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .filter(([k]) => !typeOnlyConditions.has(k))
      .flatMap(([k, v]) => conditionLeaves(v, condition ?? (universalConditions.has(k) ? undefined : k)));
  }
  return [];
}

/** `@scope/name/sub` → {name: '@scope/name', subpath: './sub'}; `name` → {name, subpath: '.'}. */
export function splitPackageSpecifier(spec: string): { name: string; subpath: string } {
  const parts = spec.split('/');
  const nameParts = spec.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1);
  const rest = parts.slice(nameParts.length);
  return { name: nameParts.join('/'), subpath: rest.length === 0 ? '.' : `./${rest.join('/')}` };
}
