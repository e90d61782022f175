// Collects problems and pins each to the right spot of the file: the offending value, its property name, or
// (for a missing field) the object that should hold it.
import { findNodeAtLocation, type Node as JsonNode } from 'jsonc-parser';
import type { LineMap, JsonPath } from './locations';
import { formatJsonPath, type SpecProblem, type SpecProblemSeverity } from './problems';

export interface ProblemOptions {
  severity?: SpecProblemSeverity;
  /** Point at the property name rather than its value (unknown fields, duplicate keys). */
  at?: 'value' | 'key';
}

export class ProblemCollector {
  readonly problems: SpecProblem[] = [];

  constructor(
    readonly file: string,
    private readonly root: JsonNode | undefined,
    private readonly lines: LineMap,
  ) {}

  /** A problem about the value at `path`; a missing value is reported at its nearest existing parent. */
  add(path: JsonPath, message: string, options: ProblemOptions = {}): void {
    const node = this.nodeFor(path, options.at ?? 'value');
    const { line, column } = this.lines.position(node?.offset ?? 0);
    this.problems.push({
      file: this.file,
      line,
      column,
      path: formatJsonPath(path),
      message,
      severity: options.severity ?? 'error',
    });
  }

  /** A problem at an offset, not tied to a JSON path (syntax errors). */
  addAtOffset(offset: number, message: string, severity: SpecProblemSeverity = 'error', path = ''): void {
    const { line, column } = this.lines.position(offset);
    this.problems.push({ file: this.file, line, column, path, message, severity });
  }

  exists(path: JsonPath): boolean {
    return this.root !== undefined && findNodeAtLocation(this.root, path) !== undefined;
  }

  /** The 1-based line of the value at `path` (for messages such as "first defined at line 12"). */
  lineOf(path: JsonPath): number | undefined {
    const node = this.root === undefined ? undefined : findNodeAtLocation(this.root, path);
    return node === undefined ? undefined : this.lines.position(node.offset).line;
  }

  hasErrors(): boolean {
    return this.problems.some((p) => p.severity === 'error');
  }

  private nodeFor(path: JsonPath, at: 'value' | 'key'): JsonNode | undefined {
    if (this.root === undefined) return undefined;
    for (let length = path.length; length >= 0; length--) {
      const node = findNodeAtLocation(this.root, path.slice(0, length));
      if (node === undefined) continue;
      if (at === 'key' && length === path.length && node.parent?.type === 'property') {
        return node.parent.children?.[0] ?? node;
      }
      return node;
    }
    return this.root;
  }
}
