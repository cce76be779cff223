/** The minimal environment exec children get: no provider keys, no tokens, nothing secret-looking. */

/** Variables passed through from the parent environment when set. */
export const PASSED_VARIABLES = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LANGUAGE",
  "LC_ALL",
  "LC_CTYPE",
  "LC_MESSAGES",
  "TERM",
  "COLORTERM",
  "NO_COLOR",
  "TZ",
  "TMPDIR",
  "TMP",
  "TEMP",
] as const;

const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)/i;

/** Set in every child so commands never wait for a pager or a password prompt. */
const NON_INTERACTIVE: Record<string, string> = {
  PAGER: "cat",
  GIT_PAGER: "cat",
  GIT_TERMINAL_PROMPT: "0",
};

/** Builds a child environment from an allow-list of `parent` variables (never secret-looking ones). */
export function minimalEnv(parent: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of PASSED_VARIABLES) {
    const value = parent[name];
    if (value !== undefined && !SECRET_NAME.test(name)) env[name] = value;
  }
  env.PATH ??= "/usr/local/bin:/usr/bin:/bin";
  env.TERM ??= "dumb";
  return { ...env, ...NON_INTERACTIVE };
}
