// The hook payload is checked by hand (src/cli/guard/hookEvents.ts, no schema library on the hook path): a field
// of the wrong type is refused with its name, the fields Weave does not read are kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GuardInputError, parsePayload } from '../../../src/cli/guard/hookEvents';

test('a payload with a field of the wrong type is refused, naming the field', () => {
  const cases: Array<[string, RegExp]> = [
    ['[1, 2]', /not a hook event: expected a JSON object, got an array/],
    ['null', /expected a JSON object, got null/],
    ['{"tool_name": "Edit"}', /hook_event_name must be a string/],
    ['{"hook_event_name": 5}', /hook_event_name must be a string/],
    [
      '{"hook_event_name": "Stop", "stop_hook_active": "yes"}',
      /stop_hook_active: expected a boolean, got string/,
    ],
    [
      '{"hook_event_name": "x", "workspace_roots": ["/a", 1]}',
      /workspace_roots: expected an array of strings/,
    ],
    ['{"hook_event_name": "x", "loop_count": "2"}', /loop_count: expected a number/],
    ['{"hook_event_name": "x", "cwd": null}', /cwd: expected a string, got null/],
    ['{"hook_event_name": "x"', /stdin is not JSON/],
    ['  ', /no hook payload on stdin/],
  ];
  for (const [text, message] of cases)
    assert.throws(
      () => parsePayload(text),
      (e: unknown) => e instanceof GuardInputError && message.test(e.message),
      text,
    );
});

test('a valid payload keeps every field, those Weave does not read included', () => {
  const payload = parsePayload(
    '{"hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/w", "tool_input": {"file_path": "a"}, "extra": [1]}',
  );
  assert.deepEqual(payload, {
    hook_event_name: 'PreToolUse',
    session_id: 's',
    cwd: '/w',
    tool_input: { file_path: 'a' },
    extra: [1],
  });
});
