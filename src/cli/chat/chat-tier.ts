/**
 * The chat's cheap rule for a message that needs no strong model: when nothing chose the model (no
 * `--model`/`--tier`, no `/model`), a short one-line message with no sign of code or files (a greeting,
 * "thanks", "what can you do?") runs on the `fast` tier; every other message runs on the root spec's model
 * (`best`). docs/chat.md states the rule.
 */

/** At most this many characters, on one line. */
const SHORT = 60;

/** Signs of work on code or files: a path or file name, code, or a word that asks for such work. */
const WORK = [
  /[`{}()[\]<>=;$]/,
  /[\\/]/,
  /\b[\w-]+\.[a-z0-9]{1,6}\b/i,
  /\b(file|files|code|bug|fix|test|tests|build|run|exec|edit|write|create|delete|remove|rename|refactor|implement|function|class|method|repo|repository|commit|branch|diff|patch|error|install|compile|debug|deploy|script|folder|directory|add|change|update|read|grep|search|find)\b/i,
];

/** True when `text` is small talk the `fast` tier can answer. */
export function isSmallTalk(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === "" || trimmed.length > SHORT || trimmed.includes("\n")) return false;
  return !WORK.some((pattern) => pattern.test(trimmed));
}

/** The tier the chat uses for small talk. */
export const SMALL_TALK_TIER = "fast";
