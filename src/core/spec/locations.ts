// Where things are in the spec file text: offsets from jsonc-parser's tree turned into 1-based lines and columns.
import { findNodeAtLocation, parseTree, type Node as JsonNode } from 'jsonc-parser';

export type JsonPath = (string | number)[];

export interface SourceLocation {
  offset: number;
  length: number;
  /** 1-based. */
  line: number;
  /** 1-based, UTF-16 code units. */
  column: number;
  endLine: number;
  endColumn: number;
}

/** Maps offsets of one text to lines and columns. */
export class LineMap {
  private readonly lineStarts: number[] = [0];

  constructor(text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      // \r\n counts once; a lone \r is a line break too (as in VS Code).
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) this.lineStarts.push(i + 1);
    }
  }

  /** 1-based line and column of a 0-based offset. */
  position(offset: number): { line: number; column: number } {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.lineStarts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - (this.lineStarts[low] ?? 0) + 1 };
  }

  location(offset: number, length: number): SourceLocation {
    const start = this.position(offset);
    const end = this.position(offset + length);
    return {
      offset,
      length,
      line: start.line,
      column: start.column,
      endLine: end.line,
      endColumn: end.column,
    };
  }
}

/**
 * Locations of values in a parsed spec file. Offsets are into the text without its byte-order mark, which is
 * also what an editor's document holds.
 */
export class SpecLocations {
  constructor(
    private readonly root: JsonNode | undefined,
    private readonly lines: LineMap,
    private readonly specIndexById: ReadonlyMap<string, number>,
  ) {}

  /** The value at a JSON path, e.g. ['specs', 2, 'test', 'command']; undefined if the path is not in the file. */
  locate(jsonPath: JsonPath): SourceLocation | undefined {
    const node = this.node(jsonPath);
    return node === undefined ? undefined : this.lines.location(node.offset, node.length);
  }

  /** The property name of the value at a JSON path (the `"command"` in `"command": "…"`). */
  locateKey(jsonPath: JsonPath): SourceLocation | undefined {
    const key = this.node(jsonPath)?.parent?.children?.[0];
    if (key === undefined || key.parent?.type !== 'property') return undefined;
    return this.lines.location(key.offset, key.length);
  }

  /** The object of spec `id`, or one of its fields: `locateSpec('cache-hit', ['test', 'command'])`. */
  locateSpec(id: string, field: JsonPath = []): SourceLocation | undefined {
    const index = this.specIndexById.get(id);
    return index === undefined ? undefined : this.locate(['specs', index, ...field]);
  }

  /** Index of spec `id` in the file's `specs` array. */
  specIndex(id: string): number | undefined {
    return this.specIndexById.get(id);
  }

  /** The spec whose object contains the offset (e.g. the cursor), if any. */
  specAt(offset: number): string | undefined {
    for (const [id, index] of this.specIndexById) {
      const node = this.node(['specs', index]);
      if (node !== undefined && offset >= node.offset && offset <= node.offset + node.length) return id;
    }
    return undefined;
  }

  position(offset: number): { line: number; column: number } {
    return this.lines.position(offset);
  }

  private node(jsonPath: JsonPath): JsonNode | undefined {
    return this.root === undefined ? undefined : findNodeAtLocation(this.root, jsonPath);
  }
}

/**
 * Where spec `id`'s object sits in the text as it is now, for "open spec": unlike SpecLocations it needs no
 * successful load, so it works while the file is mid-edit (jsonc-parser recovers from most syntax errors).
 */
export function locateSpecInText(text: string, id: string): { offset: number; length: number } | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true });
  const specs = root ? findNodeAtLocation(root, ['specs']) : undefined;
  for (const spec of specs?.children ?? []) {
    const idNode = findNodeAtLocation(spec, ['id']);
    if (idNode?.value === id) return { offset: spec.offset, length: spec.length };
  }
  return undefined;
}
