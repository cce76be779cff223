import { isMap, isScalar, isSeq, type Node } from "yaml";
import type { z } from "zod";
import { nearestName } from "../../kernel/text/nearest-name.ts";
import { agentSpecSchema, CONSTRAINT_FIELDS } from "./spec.ts";
import type { SpecError } from "./spec-checks.ts";

/**
 * Where in a spec's YAML a problem is: the line of a field, of each capability, and schema issues turned
 * into `FILE:LINE: FIELD: expected …` errors (spec-loader.ts parses; this module points).
 */

export function capabilityNodeLines(root: Node, lineOf: (offset: number | undefined) => number): number[] {
  const caps = locateExact(root, ["capabilities"]);
  if (!caps || !isSeq(caps)) return [];
  return caps.items.map((item) => lineOf((item as Node | null)?.range?.[0]));
}

export function issueErrors(
  issue: z.core.$ZodIssue,
  root: Node,
  file: string,
  lineOf: (offset: number | undefined) => number,
): SpecError[] {
  const segments = issue.path.filter((p): p is string | number => typeof p !== "symbol");
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => {
      const keyPath = [...segments, key];
      return {
        file,
        line: lineOf(locateKey(root, keyPath)?.range?.[0] ?? locate(root, segments).range?.[0]),
        field: fieldName(keyPath),
        message: unknownFieldMessage(key, knownFields(segments)),
      };
    });
  }
  const node = locateExact(root, segments);
  const message =
    node === undefined ? `missing; expected ${expectation(issue)}` : `expected ${expectation(issue)}`;
  return [{ file, line: lineOf(locate(root, segments).range?.[0]), field: fieldName(segments), message }];
}

/** `unknown field; did you mean "capabilities"? expected one of: …` (the suggestion only when one is close). */
function unknownFieldMessage(key: string, known: string[]): string {
  const near = nearestName(key, known);
  const hint = near !== undefined ? ` did you mean "${near}"?` : "";
  return `unknown field;${hint} expected one of: ${known.join(", ")}`;
}

function knownFields(segments: (string | number)[]): string[] {
  if (segments[0] === "constraints") return CONSTRAINT_FIELDS;
  return Object.keys(agentSpecSchema.shape);
}

function expectation(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      // A field's own message (the budgets') says more than the type name.
      if (!issue.message.startsWith("Invalid input")) return issue.message;
      return `${issue.expected === "array" ? "a list" : `a ${issue.expected}`}`;
    case "too_small":
      return issue.message.startsWith("Too small") ? `a value >= ${String(issue.minimum)}` : issue.message;
    case "invalid_format":
      return issue.message;
    default:
      return issue.message;
  }
}

/** `constraints.max_turns`, `capabilities[2]`. */
function fieldName(segments: (string | number)[]): string {
  let out = "";
  for (const s of segments) out += typeof s === "number" ? `[${s}]` : out ? `.${s}` : s;
  return out;
}

/** The node at `segments`, or undefined when any step is missing. */
export function locateExact(root: Node, segments: (string | number)[]): Node | undefined {
  let node: Node | undefined = root;
  for (const segment of segments) {
    if (node === undefined) return undefined;
    node = child(node, segment);
  }
  return node;
}

/** The deepest existing node along `segments` (the parent mapping when a field is missing). */
export function locate(root: Node, segments: (string | number)[]): Node {
  let node: Node = root;
  for (const segment of segments) {
    const next = child(node, segment);
    if (next === undefined) return node;
    node = next;
  }
  return node;
}

/** The key node of the last segment (for unknown-field errors). */
function locateKey(root: Node, segments: (string | number)[]): Node | undefined {
  const parent = locateExact(root, segments.slice(0, -1));
  const last = segments[segments.length - 1];
  if (!parent || !isMap(parent)) return undefined;
  const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === last);
  return (pair?.key as Node | undefined) ?? undefined;
}

function child(node: Node, segment: string | number): Node | undefined {
  if (isMap(node)) {
    const pair = node.items.find((p) => isScalar(p.key) && p.key.value === segment);
    if (!pair) return undefined;
    return (pair.value as Node | null) ?? (pair.key as Node);
  }
  if (isSeq(node) && typeof segment === "number") return (node.items[segment] as Node | null) ?? undefined;
  return undefined;
}
