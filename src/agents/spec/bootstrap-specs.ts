/**
 * The built-in agent specs, embedded at build time. The loader reads `bootstrap/` from disk when it
 * exists (running from source); a compiled binary has no such directory and uses these texts instead.
 */
import codeEditor from "../../../bootstrap/code-editor.yaml" with { type: "text" };
import codeReader from "../../../bootstrap/code-reader.yaml" with { type: "text" };
import commandRunner from "../../../bootstrap/command-runner.yaml" with { type: "text" };
import root from "../../../bootstrap/root.yaml" with { type: "text" };

/** Where embedded specs say they come from (in error messages and `agent agents list`). */
export const EMBEDDED_BOOTSTRAP_DIR = "<built-in>";

/** The bootstrap spec files by name, as their text. */
export const BOOTSTRAP_TEXTS: Readonly<Record<string, string>> = {
  "code-editor.yaml": codeEditor as string,
  "code-reader.yaml": codeReader as string,
  "command-runner.yaml": commandRunner as string,
  "root.yaml": root as string,
};
