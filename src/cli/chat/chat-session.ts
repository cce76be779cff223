/**
 * `agent chat`: the session of `agent run` (session-setup.ts), run once per message on one conversation
 * in a view that stays open. Every turn's events go to the same transcript, so `-c` and `--resume`
 * continue a chat like any run. One approval gate serves the whole chat: "yes for this session" lasts.
 */

import {
  applyCompaction,
  COMPACT_THRESHOLD,
  compactConversation,
  keepTokensFor,
} from "../../agents/loop/context/compaction.ts";
import { describeTierChoice } from "../../agents/loop/tier-classifier.ts";
import type { SkillActivationRecord } from "../../agents/spec/skills/types.ts";
import { sessionsDir } from "../../kernel/files/paths.ts";
import {
  type AgentEvent,
  AppError,
  addUsage,
  type EmitFn,
  ExitCode,
  emptyUsage,
  type Message,
  makeEvent,
  type RunResult,
  type Usage,
} from "../../kernel/index.ts";
import { modelInfo } from "../../llm/catalog.ts";
import { openTranscript, type Transcript } from "../../session/transcript.ts";
import { type ChatUi, type ChatWelcomeInfo, openChatUi } from "../../ui/chat.ts";
import { formatCost, formatUsage } from "../../ui/format.ts";
import { unknownCommandText } from "../../ui/slash-commands.ts";
import { terminalNotifier } from "../../ui/terminal-notify.ts";
import { exitCodeFor } from "../shared/io/exit-code.ts";
import { handOverToProcessStreams, isTerminal, stderr, stdout } from "../shared/io/std-streams.ts";
import { commandTelemetry, finishTelemetry } from "../shared/session/run-telemetry.ts";
import { resumeCommand, shortIdOf } from "../shared/session/session-continue.ts";
import {
  openSessionTranscript,
  type RootTurn,
  runRootTurn,
  type SessionFlags,
  type SessionSetup,
  setUpSession,
  topModel,
} from "../shared/session/session-setup.ts";
import {
  CHAT_HELP,
  chatCommandsWith,
  isSkillLine,
  parseSlashCommand,
  type SlashCommand,
  skillHelp,
} from "./chat-commands.ts";
import { closeInterruptedTurn, earlierInputs, earlierMessages } from "./chat-history.ts";
import { isSmallTalk, SMALL_TALK_TIER } from "./chat-tier.ts";

/** The conversation a chat is on: its transcript, messages so far and the model for the next turn. */
interface Conversation {
  transcript: Transcript;
  messages: Message[];
  /** The transcript already holds runs: the next session_start is marked resumed. */
  resumed: boolean;
  /** User messages in the conversation as it stands (a conversation rewind lowers it). */
  turns: number;
  model?: string;
  /** The continued session's recorded skill activations, restored by the first message's run. */
  restoredSkills?: readonly SkillActivationRecord[];
  /** The model the root's last request went to (`provider:id` or an id), after any fallback. */
  lastModel?: string;
  /** The conversation `/clear` left, when it had turns: the way back to it is printed at the end. */
  cleared?: string;
}

/** `agent chat`'s flags: the session's, and `--plan`. */
export interface ChatFlags extends SessionFlags {
  /** `--plan`: messages run in plan mode until the user approves a plan (docs/plan-mode.md). */
  plan?: boolean;
}

/** Runs `agent chat`; resolves to the exit code (0 when the user quits). */
export async function chatSession(words: string[], flags: ChatFlags): Promise<number> {
  if (!isTerminal(0) || !stdout.isTTY) {
    throw new AppError(
      "usage",
      'agent chat needs a terminal (stdin and stdout); without one, use agent run "goal" (agent run --help)',
    );
  }
  const setup = await setUpSession(flags, "chat");
  const { continued, redactor, env, session, who } = setup;
  const emit = session.emit;
  // A session in use or an unwritable state directory ends the chat before its view opens.
  const transcript = await openSessionTranscript(setup);
  const convo: Conversation = {
    transcript,
    messages: [...(continued?.point.messages ?? [])],
    resumed: continued !== undefined,
    ...(continued ? { restoredSkills: continued.point.skills } : {}),
    turns: continued?.point.turns ?? 0,
  };
  // A continued session that ended on an interrupted message: the next one must reach the model on its own.
  closeInterruptedTurn(convo.messages);
  let turn: AbortController | undefined;
  const interrupt = (key?: "escape" | "ctrl-c"): void => {
    if (turn === undefined) return;
    if (turn.signal.aborted) {
      if (key === "escape") return; // Esc interrupts; only a second Ctrl-C leaves
      // A second Ctrl-C while the turn is still winding down: leave now (the transcript holds what was done).
      void ui.close().finally(() => {
        convo.transcript.close();
        process.exit(130);
      });
      return;
    }
    emit(
      makeEvent(who, "warning", {
        message: key === "escape" ? "interrupting" : "interrupting (Ctrl-C again quits the chat)",
        code: "interrupted",
      }),
    );
    turn.abort(new Error("interrupted by the user"));
  };
  // Traces (off unless the variables or the user config name a collector): one trace per message. Set
  // up before the view opens, so a warning about them reaches stderr before Ink owns the screen.
  const telemetry = await commandTelemetry(setup.config, env, setup.client.costOf);
  // The view draws on process.stdout: every other write goes there too from now on (std-streams.ts).
  const streams = handOverToProcessStreams();
  // An approval or a plan waiting, or a long message's end, tells the terminal (docs/notifications.md).
  const notifyTerminal = terminalNotifier(
    setup.config.notifications?.terminal ?? "auto",
    env,
    streams.stdout,
  );
  const ui: ChatUi = await openChatUi({
    colors: !env.NO_COLOR,
    // The client's prices: a replay's live cost is 0, as its summary's.
    costOf: setup.client.costOf,
    onInterrupt: interrupt,
    welcome: welcomeOf(setup, continued !== undefined ? convo.messages.length : undefined),
    commands: chatCommandsWith(session.skills),
    earlier: earlierMessages(convo.messages, continued?.point.typed),
    history: earlierInputs(convo.messages, continued?.point.typed),
  });
  // The view holds raw mode, so Ctrl-C arrives as a key. A signal from elsewhere (SIGTERM, kill -INT)
  // interrupts a running turn the same way, and between turns ends the chat.
  const onSignal = (): void => {
    if (turn !== undefined) interrupt("ctrl-c");
    else void ui.close();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  // A closed terminal or SSH session (SIGHUP) ends the chat: the running turn is interrupted, the
  // transcript closed and the session's processes stopped, exit 129; nothing more is written to the gone
  // terminal.
  let hungUp = false;
  const onHangup = (): void => {
    hungUp = true;
    if (turn !== undefined && !turn.signal.aborted) turn.abort();
    void ui.close();
  };
  process.on("SIGHUP", onHangup);

  setup.setSink(
    (event: AgentEvent) => {
      convo.transcript.append(event);
      telemetry?.onEvent(event);
      ui.onEvent(event);
      if (event.kind === "notification") notifyTerminal?.(event.data.message);
    },
    (event) => {
      // The conversation as resumeFrom rebuilds it: the root's messages, with its compactions replayed.
      // Kept unredacted, so the next turn sends back exactly what the model produced.
      if (event.depth === 0 && event.kind === "message") convo.messages.push(event.data.message);
      if (event.depth === 0 && event.kind === "plan_start") convo.lastModel = event.data.model;
      if (event.depth === 0 && event.kind === "model_switch") convo.lastModel = event.data.to;
      if (event.depth === 0 && event.kind === "compaction") {
        convo.messages = applyCompaction(
          convo.messages,
          event.data.summary,
          event.data.kept,
          event.data.resultLimit,
        );
      }
    },
  );
  // One approval gate and one set of MCP servers for the whole chat (the session's): "yes for this
  // session" lasts, and servers started by one turn stay up until the chat ends.
  session.setApprover(ui.approver);
  const totals: Totals = { usage: emptyUsage(), costUsd: 0, turns: 0 };

  if (continued) {
    ui.note(
      `continuing session ${shortIdOf(continued.sessionId, sessionsDir(env))} (${convo.messages.length} messages)`,
    );
  }
  // `agent --plan`: every message runs in plan mode until the user approves a plan (docs/plan-mode.md).
  let planMode = flags.plan === true;
  if (planMode) ui.note(PLAN_MODE_ON);
  try {
    let first: string | undefined = words.join(" ").trim() || undefined;
    let lastSmallTalk = false;
    for (;;) {
      if (hungUp) break;
      const input = first !== undefined ? { kind: "message" as const, text: first } : await ui.nextInput();
      first = undefined;
      if (input.kind === "quit") break;
      const parsed = parseSlashCommand(input.text);
      // `/name args` for a skill is a message: the session activates the skill (sdk/session-run.ts).
      const command =
        parsed?.name === "unknown" && isSkillLine(input.text, session.skills) ? undefined : parsed;
      // `/plan GOAL` is a message in plan mode, and so is every message while `--plan` holds; `/plan`
      // alone says how to use it.
      const planning =
        command?.name === "plan" && command.goal !== ""
          ? command.goal
          : planMode && command === undefined
            ? input.text
            : undefined;
      if (command !== undefined && planning === undefined) {
        if (command.name === "quit") break;
        if (command.name === "plan" && planMode) ui.note(PLAN_MODE_ON, false);
        else await runCommand(command, { setup, convo, ui, totals, emit });
        continue;
      }
      ui.sent(input.text);
      const chosen = convo.model ?? setup.override;
      // Nothing chose the model and the message is small talk: the fast tier answers (chat-tier.ts).
      const smallTalk = chosen === undefined && isSmallTalk(input.text);
      // Said when the chat moves to the fast tier, not again for each short message in a row.
      if (smallTalk && !lastSmallTalk)
        ui.note(`tier ${SMALL_TALK_TIER} for a short message without code or files (/model to choose)`);
      lastSmallTalk = smallTalk;
      const top = topModel(setup, input.text, smallTalk ? SMALL_TALK_TIER : chosen);
      if (top.auto) {
        const from =
          convo.model !== undefined
            ? "/model"
            : setup.override !== undefined
              ? "--model/--tier"
              : `spec ${setup.spec.name}: model:`;
        ui.note(describeTierChoice(top.auto, from));
      }
      turn = new AbortController();
      await ui.ready();
      const rootTurn: RootTurn = {
        goal: planning ?? input.text,
        signal: turn.signal,
        sessionId: convo.transcript.id,
        history: [...convo.messages],
        resumed: convo.resumed,
        ...(convo.restoredSkills ? { restoredSkills: convo.restoredSkills } : {}),
        turn: convo.turns + 1,
        ...(top.model !== undefined ? { model: top.model } : {}),
      };
      const outcome =
        planning !== undefined
          ? await (await import("../shared/session/plan-review.ts")).planThenExecute(
              setup,
              rootTurn,
              true,
              () => [...convo.messages],
            )
          : { result: await runRootTurn(setup, rootTurn), approved: false };
      const result = outcome.result;
      turn = undefined;
      convo.resumed = true;
      // Restored once: from now on the session keeps the root's activations across messages.
      delete convo.restoredSkills;
      convo.turns += 1;
      if (result.status === "interrupted") closeInterruptedTurn(convo.messages);
      addTotals(totals, result);
      const exitCode = exitCodeFor(result);
      ui.turnEnded(redactor.redactValue({ ...result, sessionId: convo.transcript.id, exitCode }));
      if (planMode && outcome.approved) {
        planMode = false;
        ui.note("plan mode is off: the next messages run under the normal rules");
      }
    }
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    process.off("SIGHUP", onHangup);
    await session.close();
    convo.transcript.close();
    await ui.close();
    await finishTelemetry(telemetry);
  }
  if (hungUp) return ExitCode.hangup;
  if (setup.worktree) {
    const worktrees = await import("../shared/session/worktree-session.ts");
    const { worktreeLines } = await import("../../ui/result.ts");
    const report = worktrees.finishWorktree(setup.worktree, convo.transcript.id, env);
    stderr.write(`${worktreeLines(report).join("\n")}\n`);
  }
  // The way back: this conversation, or the one `/clear` left when nothing was said since.
  const latest = convo.resumed ? convo.transcript.id : convo.cleared;
  if (latest !== undefined) {
    stderr.write(`continue: ${resumeCommand("chat", latest, setup.workspace.root, env)}\n`);
  }
  return 0;
}

/** What the chat says when `--plan` holds (at the start, and for `/plan` alone). */
const PLAN_MODE_ON =
  "plan mode: each message gets read-only tools and ends with a plan to approve (y), edit (f) or reject (n); the first plan you approve is carried out and ends plan mode";

/** What `/cost` reports: this chat's turns, tokens and cost. */
interface Totals {
  usage: Usage;
  costUsd: number;
  turns: number;
}

function addTotals(totals: Totals, result: RunResult): void {
  const root = result.usage.find((r) => r.depth === 0);
  totals.turns += 1;
  if (!root) return;
  totals.usage = addUsage(totals.usage, root.subtree.usage);
  totals.costUsd += root.subtree.costUsd;
}

interface CommandContext {
  setup: SessionSetup;
  convo: Conversation;
  ui: ChatUi;
  totals: Totals;
  emit: EmitFn;
}

/** Carries out a slash command (all but /quit, which ends the loop). */
async function runCommand(
  command: SlashCommand,
  { setup, convo, ui, totals, emit }: CommandContext,
): Promise<void> {
  switch (command.name) {
    case "plan":
      ui.note("/plan GOAL: plan mode for one message (read-only tools; the plan is yours to approve)", false);
      return;
    case "help":
      for (const line of CHAT_HELP) ui.note(line);
      for (const line of skillHelp(setup.session.skills)) ui.note(line);
      return;
    case "clear": {
      let next: Transcript;
      try {
        next = openTranscript({ redactor: setup.redactor });
      } catch (error) {
        // A full or unwritable state directory: said in the chat, which goes on with its conversation.
        ui.note(`/clear: ${(error as Error).message}`, false);
        return;
      }
      const left = convo.resumed ? convo.transcript.id : convo.cleared;
      convo.transcript.close();
      convo.transcript = next;
      convo.messages = [];
      convo.resumed = false;
      delete convo.restoredSkills;
      if (left !== undefined) convo.cleared = left;
      delete convo.lastModel;
      convo.turns = 0;
      ui.reset?.(welcomeOf(setup).model);
      const dir = sessionsDir(setup.env);
      // The cleared conversation is kept: its id is the way back (`agent chat --resume ID`).
      const back = left !== undefined ? ` · the cleared one is session ${shortIdOf(left, dir)}` : "";
      ui.note(`new conversation · session ${shortIdOf(convo.transcript.id, dir)}${back}`);
      return;
    }
    case "model": {
      if (command.ignoredLines !== undefined) {
        const n = command.ignoredLines;
        ui.note(
          `/model takes one line: ${n} more ${n === 1 ? "line was" : "lines were"} ignored (not sent)`,
          false,
        );
      }
      const current = convo.model ?? setup.override ?? setup.spec.model;
      if (command.arg === undefined) {
        if (current.trim().toLowerCase() === "auto") {
          ui.note("model: auto (a tier chosen for each message); /model NAME switches");
          return;
        }
        const { ref } = setup.client.resolve(current);
        // The last message may have run on another model (small talk on the fast tier, a fallback).
        const last = convo.lastModel;
        const ran =
          last !== undefined && last !== ref.id && last !== `${ref.providerName}:${ref.id}`
            ? `; the last message ran on ${last}`
            : "";
        ui.note(`model: ${ref.providerName}:${ref.id} (from "${current}")${ran}; /model NAME switches`);
        return;
      }
      if (command.arg.trim().toLowerCase() === "auto") {
        convo.model = command.arg;
        ui.note("model for the next messages: auto (a tier chosen for each message)");
        return;
      }
      try {
        const { ref } = setup.client.resolve(command.arg, { nameErrorKind: "usage" });
        convo.model = command.arg;
        ui.note(`model for the next messages: ${ref.providerName}:${ref.id}`);
        ui.modelChosen?.(`${ref.providerName}:${ref.id}`);
      } catch (error) {
        ui.note(`/model ${command.arg}: ${(error as Error).message}`, false);
      }
      return;
    }
    case "cost": {
      const turns = `${totals.turns} ${totals.turns === 1 ? "turn" : "turns"}`;
      ui.note(`${turns} · ${formatUsage(totals.usage)} · ${formatCost(totals.costUsd)}`);
      return;
    }
    case "compact": {
      // The summary call is the loop's own (compaction.ts); its `compaction` event reaches the transcript,
      // the view and, through the emit tap above, this conversation.
      const { client } = setup;
      const outcome = await compactConversation(
        [...convo.messages],
        {
          who: setup.who,
          emit,
          stream: client.stream,
          resolveModel: (name) => client.resolve(name).ref,
          modelInfo: (ref) => client.info(ref),
        },
        { reason: "requested", keepTokens: chatKeepTokens(setup, convo) },
      );
      if (!outcome.ok) ui.note(`nothing compacted: ${outcome.reason}`, outcome.nothingToDo === true);
      return;
    }
    case "rewind": {
      const { chatRewind } = await import("./chat-rewind.ts");
      await chatRewind({ setup, convo, ui, emit });
      return;
    }
    case "unknown":
      ui.note(unknownCommandText(command.text, chatCommandsWith(setup.session.skills)), false);
      return;
    case "quit":
      return;
  }
}

/** The tiers a model name can be (the opening screen says "tier T · /model to change"). */
const TIERS = new Set(["fast", "good", "best", "smart", "auto"]);

/** What the opening screen says: the model the next message runs on, the workspace, earlier messages. */
function welcomeOf(setup: SessionSetup, resumed?: number): ChatWelcomeInfo {
  const name = setup.override ?? setup.spec.model;
  const tier = TIERS.has(name.trim().toLowerCase()) ? name.trim().toLowerCase() : undefined;
  let model = name;
  if (tier !== "auto") {
    try {
      const { ref } = setup.client.resolve(name);
      model = `${ref.providerName}:${ref.id}`;
    } catch {
      // Not resolvable now (no key for its provider): the first message reports it; show the name.
    }
  } else model = "auto (a tier chosen for each message)";
  return {
    model,
    workspace: setup.workspace.root,
    ...(tier !== undefined ? { tier } : {}),
    ...(resumed !== undefined ? { resumed } : {}),
    ...(setup.env.HOME !== undefined ? { home: setup.env.HOME } : {}),
  };
}

/** The kept tail's budget of a chat's `/compact`: a share of the chat model's input limit at the threshold. */
function chatKeepTokens(setup: SessionSetup, convo: Conversation): number {
  const threshold = setup.limits.compactThreshold ?? COMPACT_THRESHOLD;
  try {
    const name = convo.model ?? setup.override ?? setup.spec.model;
    return keepTokensFor(setup.client.info(setup.client.resolve(name).ref), threshold);
  } catch {
    // A model that does not resolve now (`auto` is decided per message): the unknown-model window.
    return keepTokensFor(modelInfo("unknown"), threshold);
  }
}
