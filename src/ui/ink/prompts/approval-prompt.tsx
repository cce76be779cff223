import { Box, Text } from "ink";
import { useRef, useState } from "react";
import type { ApprovalDecision, ApprovalRequest } from "../../../kernel/run-events/approvals.ts";
import { PLAN_REVIEW_TOOL } from "../../../kernel/run-events/plan.ts";
import { ruleInWords } from "../../../policy/describe.ts";
import { displayArgs } from "../../format.ts";
import type { InterruptKeyName } from "../../renderer-types.ts";
import { tone } from "../theme.ts";
import { useKeys } from "../views/use-keys.ts";
import { DiffPreview } from "./diff-preview.tsx";

/** Props of {@link ApprovalPrompt}. */
export interface ApprovalPromptProps {
  request: ApprovalRequest;
  colors: boolean;
  /** Called once with the user's decision. */
  onDecision: (decision: ApprovalDecision) => void;
  /** Ctrl-C while the prompt holds raw mode. */
  onInterrupt: (key?: InterruptKeyName) => void;
  /** Requests waiting behind this one. */
  queued?: number;
}

const DIFF_TOOLS = new Set(["write_file", "edit_file", "apply_patch"]);

/**
 * Asks about one tool call: names the agent and tool, shows the arguments, a colored diff for file edits
 * or the command for exec. Keys: y yes once, a yes for this session (shows the rule it adds), n no,
 * f no with feedback (a line of text, Enter sends, Esc goes back); Esc (outside feedback) is no, as the
 * prompt says: the model reads the denial and the turn goes on (Esc again, outside the prompt, interrupts).
 */
export function ApprovalPrompt({
  request,
  colors,
  onDecision,
  onInterrupt,
  queued = 0,
}: ApprovalPromptProps) {
  const [mode, setMode] = useState<"choose" | "feedback">("choose");
  const [feedback, setFeedback] = useState("");
  const done = useRef(false);
  // The same, updated at once: several input chunks can arrive before React renders again.
  const modeNow = useRef<"choose" | "feedback">("choose");
  const feedbackNow = useRef("");

  const decide = (decision: ApprovalDecision): void => {
    if (done.current) return;
    done.current = true;
    onDecision(decision);
  };
  const switchMode = (next: "choose" | "feedback"): void => {
    modeNow.current = next;
    setMode(next);
  };
  const editFeedback = (edit: (text: string) => string): void => {
    feedbackNow.current = edit(feedbackNow.current);
    setFeedback(feedbackNow.current);
  };
  /**
   * Text typed in feedback mode. Line ends inside it (a paste) become spaces; one at its end is Enter
   * (quick typing delivers "text\r" as one chunk) and sends.
   */
  const typeFeedback = (text: string): void => {
    const send = /[\r\n]$/.test(text);
    editFeedback((current) => current + text.replace(/[\r\n]+$/, "").replace(/[\r\n]/g, " "));
    if (send) decide({ kind: "deny_feedback", feedback: feedbackNow.current.trim() });
  };

  useKeys((input, key) => {
    if (key.ctrl && input === "c") {
      onInterrupt("ctrl-c");
      return;
    }
    if (modeNow.current === "feedback") {
      if (key.return) decide({ kind: "deny_feedback", feedback: feedbackNow.current.trim() });
      else if (key.escape) switchMode("choose");
      else if (key.backspace || key.delete) editFeedback((text) => text.slice(0, -1));
      else if (!key.ctrl && !key.meta && input) typeFeedback(input);
      return;
    }
    // Keys typed quickly arrive as one chunk ("fuse let"): f starts the feedback with the rest. y, a and n
    // decide only as a key of their own, so pasted text never approves anything.
    const choice = input.toLowerCase();
    // Esc is "no", as the prompt's last choice says; it does not end the turn or the run.
    if (key.escape) decide({ kind: "deny" });
    else if (choice === "y") decide({ kind: "once" });
    else if (choice === "a") decide({ kind: "session" });
    else if (choice === "n") decide({ kind: "deny" });
    else if (choice.startsWith("f") && !key.ctrl && !key.meta) {
      switchMode("feedback");
      if (input.length > 1) typeFeedback(input.slice(1));
    }
  });

  if (request.tool === PLAN_REVIEW_TOOL)
    return <PlanReview request={request} colors={colors} mode={mode} changes={feedback} />;
  const isDiff = DIFF_TOOLS.has(request.tool) && request.preview.trim() !== "";
  const isExec = request.tool === "exec";
  const { command: _command, ...execArgs } = request.args;
  const args = displayArgs(isDiff ? omitBulk(request.args) : isExec ? execArgs : request.args);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={tone(colors, "yellow")} paddingX={1}>
      <Text>
        <Text bold>{request.agentName}</Text> wants to run{" "}
        <Text bold color={tone(colors, "cyan")}>
          {request.tool}
        </Text>
        {queued > 0 ? <Text dimColor> ({queued} more waiting)</Text> : null}
      </Text>
      {isExec ? (
        <Text color={tone(colors, "yellow")}>$ {String(request.args.command ?? request.preview)}</Text>
      ) : null}
      {args.map(([name, value]) => (
        <Text key={name}>
          <Text dimColor>{name}:</Text> {value}
        </Text>
      ))}
      {isDiff ? <DiffPreview diff={request.preview} colors={colors} /> : null}
      {!isDiff && !isExec && request.preview.trim() !== "" ? <Text dimColor>{request.preview}</Text> : null}
      <Decided request={request} />
      {mode === "choose" ? (
        <>
          <Text>
            <Text bold>y</Text> yes once · <Text bold>a</Text> yes for this session · <Text bold>n</Text> no ·{" "}
            <Text bold>f</Text> no, with feedback · <Text bold>Esc</Text> no
          </Text>
          <SessionRules rules={sessionRules(request)} colors={colors} />
        </>
      ) : (
        <Text>
          feedback for the model (Enter sends, Esc goes back): {feedback}
          <Text inverse> </Text>
        </Text>
      )}
    </Box>
  );
}

/**
 * Plan mode's review (docs/plan-mode.md): its keys, under the plan the history shows (the `plan` event). The approval prompt's keys keep their
 * meaning: y (or a) approves, f approves with the changes typed after it, n and Esc reject.
 */
function PlanReview({
  request,
  colors,
  mode,
  changes,
}: {
  request: ApprovalRequest;
  colors: boolean;
  mode: "choose" | "feedback";
  changes: string;
}) {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={tone(colors, "yellow")} paddingX={1}>
      <Text>
        <Text bold>{request.agentName}</Text> has a plan (nothing has changed yet): the plan above
      </Text>
      {mode === "choose" ? (
        <Text>
          <Text bold>y</Text> carry it out · <Text bold>f</Text> edit it, then carry it out ·{" "}
          <Text bold>n</Text> no, change nothing · <Text bold>Esc</Text> no
        </Text>
      ) : (
        <Text>
          your changes to the plan (Enter carries it out with them, Esc goes back): {changes}
          <Text inverse> </Text>
        </Text>
      )}
    </Box>
  );
}

/**
 * The line saying what is being decided (`edit greet.js`, `run node -e "…"`), and why it asks when a rule
 * or a guard made it ask rather than the default (a default's reason names only a fragment of the call).
 */
function Decided({ request }: { request: ApprovalRequest }) {
  if (request.what === undefined) return <Text dimColor>{request.reason}</Text>;
  const why = request.reason.startsWith("default:") ? "" : ` (${request.reason})`;
  return (
    <Text>
      Allow: <Text bold>{request.what}</Text>
      {why === "" ? null : <Text dimColor>{why}</Text>}
    </Text>
  );
}

/** The rules "a" adds. */
function sessionRules(request: ApprovalRequest): string[] {
  return request.sessionRules ?? (request.sessionRule === "" ? [] : [request.sessionRule]);
}

/**
 * What "a" adds: each rule in words, then the rule itself on a line of its own, as written in config's
 * `allow:` and after `--allow` (no shell quoting, which would turn `'` into `'\''`), so it reads and
 * copies as one line.
 */
function SessionRules({ rules, colors }: { rules: readonly string[]; colors: boolean }) {
  if (rules.length === 0) return null;
  return (
    <>
      <Text dimColor>
        a adds {rules.length === 1 ? "this rule" : "these rules"} for the session (
        {rules.map(ruleInWords).join("; ")}):
      </Text>
      {rules.map((rule) => (
        <Text key={rule} color={tone(colors, "cyan")}>
          {rule}
        </Text>
      ))}
    </>
  );
}

/** Arguments without the bulky text the diff already shows. */
function omitBulk(args: Record<string, unknown>): Record<string, unknown> {
  const { content: _content, old_string: _old, new_string: _new, patch: _patch, ...rest } = args;
  return rest;
}
