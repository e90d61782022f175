// metric.py, Harbor's metric hook for a mined dataset. Harbor's UvScript metric runs `uv run metric.py -i
// rewards.jsonl -o metric.json`: one line per trial, the trial's reward.json (Weave's: "reward", "specs_passed",
// "spec.<id>" per spec) or `null` for a trial that produced none; it reads the JSON object written to -o.
// The constraints are the specs named keep-… (the PASS_TO_PASS specs of a mined task; commitSpecs.ts names them).
export const METRIC_SCRIPT = `#!/usr/bin/env python3
# /// script
# requires-python = ">=3.9"
# ///
"""Harbor metric hook of a dataset written by weave mine.

Usage: metric.py -i rewards.jsonl -o metric.json

Each input line is one trial's reward.json (or null when the trial produced none). Output:
  strict_success             share of trials whose task reward is 1 (every FAIL_TO_PASS and PASS_TO_PASS spec passes)
  spec_pass_rate             share of all spec results that pass
  constraint_violation_rate  share of trials that break at least one PASS_TO_PASS spec (the keep-... specs)
  trials                     number of trials read (null ones count as failures)
"""
import argparse
import json


def main():
    parser = argparse.ArgumentParser(description="Metrics of a weave mine dataset")
    parser.add_argument("-i", "--input", required=True)
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    trials = 0
    strict = 0
    specs_total = 0
    specs_passed = 0
    with_constraints = 0
    violations = 0
    with open(args.input, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if line.strip() == "":
                continue
            reward = json.loads(line)
            if reward is not None and not isinstance(reward, dict):
                raise SystemExit("%s:%d: a reward must be a JSON object or null" % (args.input, number))
            trials += 1
            if reward is None:
                continue
            if reward.get("reward") == 1:
                strict += 1
            spec_results = {k[len("spec."):]: v for k, v in reward.items() if k.startswith("spec.")}
            specs_total += len(spec_results)
            specs_passed += sum(1 for v in spec_results.values() if v == 1)
            constraints = [v for k, v in spec_results.items() if k.startswith("keep-")]
            if constraints:
                with_constraints += 1
                if any(v != 1 for v in constraints):
                    violations += 1
    ratio = lambda part, whole: part / whole if whole else 0.0
    metrics = {
        "strict_success": ratio(strict, trials),
        "spec_pass_rate": ratio(specs_passed, specs_total),
        "constraint_violation_rate": ratio(violations, with_constraints),
        "trials": trials,
    }
    with open(args.output, "w", encoding="utf-8") as handle:
        json.dump(metrics, handle, indent=2, sort_keys=True)
        handle.write("\\n")


if __name__ == "__main__":
    main()
`;
