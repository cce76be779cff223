import { ruleApplies } from "./file-rules.ts";
import { leavesWorkspace, normalizeTarget, PATH_TOOLS, patternMatches, patternOccurs } from "./match.ts";
import { NON_EXECUTING, programOf, riskyOption, withoutGlobalOptions } from "./programs.ts";
import { splitShell } from "./shell-split.ts";
import type { Effect, PolicyRequest, Rule, Verdict } from "./types.ts";

/** The verdict for one unit: one target, or one simple command of an exec target. */
interface Unit extends Verdict {
  /** Allowed by a "yes for this session" rule, which may lift `sensitive`. */
  granted?: boolean;
}

const RANK: Record<Effect, number> = { allow: 0, ask: 1, deny: 2 };

function matches(rule: Rule, texts: string[]): boolean {
  if (rule.pattern === undefined) return true;
  return texts.some((text) => patternMatches(rule.tool, rule.pattern!, text));
}

/** What one unit is matched against. */
interface UnitTexts {
  /** Texts allow rules must match. */
  strict: string[];
  /** Other spellings deny and ask rules may match too. */
  loose: string[];
  /** Text in which deny and ask rules may match anywhere at a word boundary (arguments a program may
   * run as a command). */
  scan?: string;
  /** An option that makes the program run another program or write a file: only an allow rule naming
   * it (or the bare tool) covers the command. */
  risky?: string;
  /** An argument, built by expansion, that a program which may run its arguments could run: no one can
   * tell which program that is, so any deny rule could match it. */
  unresolved?: string;
}

function restricts(rule: Rule, texts: UnitTexts): boolean {
  if (matches(rule, [...texts.strict, ...texts.loose])) return true;
  return texts.scan !== undefined && rule.pattern !== undefined && patternOccurs(rule.pattern, texts.scan);
}

function permits(rule: Rule, texts: UnitTexts): boolean {
  if (!matches(rule, texts.strict)) return false;
  return texts.risky === undefined || rule.pattern === undefined || rule.pattern.includes(texts.risky);
}

/**
 * A rule as a reason names it: a project's rule says where it lives, since the user did not write it and
 * would look for it in their own config (`deny rule exec:rm * of the project's .agent/config.yaml`).
 */
function ruleName(rule: Rule): string {
  return rule.source === "project" ? `${rule.text} of the project's .agent/config.yaml` : rule.text;
}

/** Decides one unit. Deny beats a session grant, which beats ask, which beats allow. */
function decideUnit(rules: Rule[], texts: UnitTexts, fallback: Unit): Unit {
  const deny = rules.find((r) => r.effect === "deny" && restricts(r, texts));
  if (deny) return { effect: "deny", rule: deny, reason: `deny rule ${ruleName(deny)}` };
  const unknown = texts.unresolved === undefined ? undefined : rules.find((r) => r.effect === "deny");
  if (unknown) {
    const reason = `${texts.unresolved} may be a command, and deny rule ${ruleName(unknown)} could match it`;
    return { effect: "deny", rule: unknown, reason };
  }
  const grant = rules.find((r) => r.effect === "allow" && r.source === "session" && matches(r, texts.strict));
  if (grant)
    return {
      effect: "allow",
      rule: grant,
      reason: `allowed for this session (${grant.text})`,
      granted: true,
    };
  const asking = rules.find((r) => r.effect === "ask" && restricts(r, texts));
  if (asking) return { effect: "ask", rule: asking, reason: `ask rule ${ruleName(asking)}` };
  const allow = rules.find((r) => r.effect === "allow" && permits(r, texts));
  if (allow) return { effect: "allow", rule: allow, reason: `allow rule ${allow.text}` };
  if (texts.risky !== undefined && rules.some((r) => r.effect === "allow" && matches(r, texts.strict))) {
    return ask(`${texts.risky} can run another program or write a file; no allow rule names it`);
  }
  return fallback;
}

function ask(reason: string): Unit {
  return { effect: "ask", reason };
}

/**
 * Other spellings deny and ask rules also see: unquoted, with the program's directory dropped, and
 * without options before a subcommand (`git -C dir push` is also `git push`).
 */
function looseForms(argv: string[]): string[] {
  const base = [programOf(argv), ...argv.slice(1)];
  const forms = [argv, base, withoutGlobalOptions(base)].map((words) => words.join(" "));
  return [...new Set(forms)];
}

/** How one simple command is matched: its environment counts for allow rules, risky options too. */
function commandTexts(text: string, argv: string[]): UnitTexts {
  const risky = riskyOption(argv);
  const texts: UnitTexts = { strict: [text], loose: looseForms(argv) };
  if (risky !== undefined) texts.risky = risky;
  if (risky !== undefined || !NON_EXECUTING.has(programOf(argv))) {
    texts.scan = argv.slice(1).join(" ");
    const expanded = argv.slice(1).find((w) => /^[$`]/.test(w));
    if (expanded !== undefined) texts.unresolved = expanded;
  }
  return texts;
}

/**
 * A command line the splitter cannot follow may run any program: it is denied when any deny rule
 * exists (the rule named is one matching the text, if any), so `--on-ask allow` cannot run a denied
 * program through a construct the splitter does not model.
 */
function unsplittable(raw: string, reason: string, rules: Rule[]): Unit[] {
  const denies = rules.filter((r) => r.effect === "deny");
  const unquoted = raw.replace(/['"\\]/g, "");
  const texts: UnitTexts = { strict: [raw], loose: [unquoted], scan: unquoted };
  const deny = denies.find((r) => restricts(r, texts)) ?? denies[0];
  if (deny) {
    return [
      {
        effect: "deny",
        rule: deny,
        reason: `cannot tell which programs run (${reason}), and deny rule ${deny.text} could match`,
      },
    ];
  }
  const whole = rules.filter((r) => r.source === "session");
  return [decideUnit(whole, { strict: [raw], loose: [] }, ask(`unparsable shell (${reason})`))];
}

/** One exec target: every simple command must be allowed, none denied or asked. */
function execUnits(command: string, rules: Rule[]): Unit[] {
  const raw = command.trim();
  const split = splitShell(raw);
  if (!split.ok) return unsplittable(raw, split.reason, rules);
  const units = split.texts.map((text, i) =>
    decideUnit(rules, commandTexts(text, split.commands[i]!), ask(`default: exec asks (${text})`)),
  );
  if (units.some((u) => u.effect === "deny")) return units;
  // A session grant names the exact command line the user approved, redirections included.
  const whole = rules.filter((r) => r.source === "session");
  const granted = decideUnit(whole, { strict: [raw], loose: [] }, ask(""));
  if (granted.effect === "allow") return [granted];
  if (split.commands.length === 0) units.push(ask("default: exec asks"));
  for (const file of split.writes) units.push(ask(`exec writes to ${file} through a redirection`));
  return units;
}

/** One target of a file, fetch or other tool. */
function targetUnit(request: PolicyRequest, target: string | undefined, rules: Rule[]): Unit {
  // Only reads of workspace paths are allowed by default: fetch reads too, but what it sends (the URL)
  // leaves the machine, so it asks like a write. An MCP tool's read-only claim counts only when the user
  // trusts its server (the MCP schema: clients should never decide on annotations of untrusted servers).
  const fallback: Unit = request.allowByDefault
    ? { effect: "allow", reason: `default: ${request.tool} holds no permission of its own` }
    : request.readOnly && request.skillFolder === true && PATH_TOOLS.has(request.tool)
      ? { effect: "allow", reason: "default: reading an activated skill's folder is allowed" }
      : request.readOnly && PATH_TOOLS.has(request.tool)
        ? { effect: "allow", reason: "default: read-only tools are allowed in the workspace" }
        : request.readOnly && request.trusted === true
          ? { effect: "allow", reason: "default: a trusted server's read-only tool is allowed" }
          : ask(`default: ${request.tool} asks`);
  if (target === undefined)
    return decideUnit(
      rules.filter((r) => r.pattern === undefined),
      { strict: [], loose: [] },
      fallback,
    );
  const normalized = normalizeTarget(request.tool, target);
  const unit = decideUnit(rules, { strict: [normalized], loose: [target] }, fallback);
  const skillRead = request.readOnly && request.skillFolder === true;
  if (PATH_TOOLS.has(request.tool) && leavesWorkspace(normalized) && unit.effect === "allow" && !skillRead) {
    return ask(`${target} is outside the workspace`);
  }
  return unit;
}

/**
 * Decides one tool call against the rules: a pure function. Deny beats ask beats allow; a call with
 * several targets is allowed only if every target is; for exec every simple command of the command
 * line must be allowed (unparsable shell asks, output redirections to files ask). Without a matching
 * rule read-only tools allow and everything else asks. Sensitive requests never come out as allow
 * unless a session grant covers them. Session rules (source "session") also beat ask rules. A rule for
 * any file-change tool (edit_file, write_file, apply_patch) governs calls of all three (file-rules.ts).
 */
export function evaluate(request: PolicyRequest, rules: Rule[]): Verdict {
  const own = rules.filter((r) => ruleApplies(r.tool, request.tool));
  const targets: (string | undefined)[] = request.targets.length > 0 ? request.targets : [undefined];
  const units =
    request.tool === "exec"
      ? targets.flatMap((t) => (t === undefined ? [ask("default: exec asks")] : execUnits(t, own)))
      : targets.map((t) => targetUnit(request, t, own));
  let decided = units[0]!;
  for (const unit of units) if (RANK[unit.effect] > RANK[decided.effect]) decided = unit;
  if (decided.effect !== "allow") return toVerdict(decided);
  const reasons = [...new Set(units.map((u) => u.reason))];
  const verdict: Verdict = { effect: "allow", reason: reasons.join("; ") };
  const rule = units.find((u) => u.rule)?.rule;
  if (rule) verdict.rule = rule;
  if (request.sensitive && !units.every((u) => u.granted)) {
    return {
      ...verdict,
      effect: "ask",
      reason: `sensitive target (agent config or .git): ${verdict.reason}`,
    };
  }
  return verdict;
}

function toVerdict(unit: Unit): Verdict {
  const verdict: Verdict = { effect: unit.effect, reason: unit.reason };
  if (unit.rule) verdict.rule = unit.rule;
  return verdict;
}
