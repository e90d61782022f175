// The one mapping between the shapes a spec takes (specs.json, a task's task.json, the panel's canonical form):
// the same identity and relations, in the documented key order, with the test the target shape carries.
import type { Spec } from '../../shared/specSchema';

export type SpecIdentity = Pick<
  Spec,
  'id' | 'title' | 'kind' | 'statement' | 'anchors' | 'dependsOn' | 'interactsWith'
>;

/** A spec's identity (id, statement, anchors, relations) with the given test. */
export function withTest<T>(spec: SpecIdentity, test: T): SpecIdentity & { test: T } {
  return {
    id: spec.id,
    title: spec.title,
    kind: spec.kind,
    statement: spec.statement,
    test,
    anchors: spec.anchors,
    dependsOn: spec.dependsOn,
    interactsWith: spec.interactsWith,
  };
}
