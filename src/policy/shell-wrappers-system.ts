/**
 * Wrappers that change how, where or as whom a command runs (privileges, scheduling, locks, tracing,
 * namespaces, terminals, repetition). Each must be allowed itself, and the command it runs too.
 */
import {
  guarded,
  type OptionSpec,
  scriptOption,
  skipOptions,
  type WrapperSpec,
} from "./shell-wrapper-kit.ts";

export const SYSTEM_WRAPPERS: Record<string, WrapperSpec> = {
  sudo: guarded({
    flags: ["-A", "-B", "-E", "-H", "-K", "-P", "-S", "-b", "-e", "-i", "-k", "-l", "-n", "-s", "-v"],
    withValue: ["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-T", "-U", "--user", "--group", "--chdir"],
  }),
  doas: guarded({ flags: ["-n", "-s", "-L"], withValue: ["-u", "-C"] }),
  setsid: guarded({ flags: ["-f", "-w", "-c", "--fork", "--wait", "--ctty"] }),
  stdbuf: guarded({ withValue: ["-i", "-o", "-e", "--input", "--output", "--error"] }),
  unbuffer: guarded({ flags: ["-p"] }),
  ionice: guarded({ flags: ["-t"], withValue: ["-c", "-n", "--class", "--classdata"] }, 0, [
    "-p",
    "-P",
    "-u",
  ]),
  flock: {
    strict: true,
    unwrap(name, args) {
      const spec: OptionSpec = {
        flags: [
          "-s",
          "--shared",
          "-x",
          "-e",
          "--exclusive",
          "-u",
          "--unlock",
          "-n",
          "--nb",
          "--nonblock",
        ].concat(["-o", "--close", "-F", "--no-fork", "--verbose"]),
        withValue: ["-w", "--wait", "--timeout", "-E", "--conflict-exit-code"],
      };
      const at = skipOptions(name, args, spec) + 1;
      const next = args[at]?.text;
      if (next === "-c" || next === "--command") return scriptOption({}).unwrap(name, args.slice(at));
      const inner = args.slice(at);
      return { reportSelf: true, inner: inner.length > 0 ? [inner] : [], scripts: [] };
    },
  },
  chrt: guarded(
    {
      flags: ["-a", "--all-tasks", "-b", "--batch", "-d", "--deadline", "-e", "--ext", "-f", "--fifo"].concat(
        ["-i", "--idle", "-o", "--other", "-r", "--rr", "-R", "--reset-on-fork", "-v", "--verbose"],
      ),
      withValue: ["-T", "--sched-runtime", "-P", "--sched-period", "-D", "--sched-deadline"],
    },
    1,
    ["-p", "--pid", "-m", "--max"],
  ),
  taskset: guarded({ flags: ["-a", "--all-tasks", "-c", "--cpu-list"] }, 1, ["-p", "--pid"]),
  setpriv: guarded({
    flags: [
      "-d",
      "--dump",
      "--nnp",
      "--no-new-privs",
      "--keep-groups",
      "--clear-groups",
      "--init-groups",
    ].concat(["--reset-env"]),
    withValue: ["--reuid", "--regid", "--ruid", "--rgid", "--euid", "--egid", "--groups", "--inh-caps"]
      .concat(["--ambient-caps", "--bounding-set", "--securebits", "--pdeathsig", "--selinux-label"])
      .concat(["--apparmor-profile", "--landlock-access", "--landlock-rule"]),
  }),
  unshare: guarded({
    flags: ["-m", "--mount", "-u", "--uts", "-i", "--ipc", "-n", "--net", "-p", "--pid", "-U", "--user"]
      .concat(["-C", "--cgroup", "-T", "--time", "-f", "--fork", "-r", "--map-root-user", "-c"])
      .concat(["--map-current-user", "--mount-proc", "--kill-child", "--keep-caps"]),
    withValue: ["-S", "--setuid", "-G", "--setgid", "-R", "--root", "-w", "--wd", "--propagation"].concat([
      "--setgroups",
      "--map-user",
      "--map-group",
      "--map-users",
      "--map-groups",
    ]),
  }),
  strace: guarded(
    {
      flags: [
        "-f",
        "-ff",
        "-c",
        "-C",
        "-w",
        "-d",
        "-D",
        "-DD",
        "-F",
        "-i",
        "-k",
        "-n",
        "-q",
        "-qq",
        "-r",
      ].concat(["-t", "-tt", "-ttt", "-T", "-v", "-x", "-xx", "-y", "-yy", "-Z", "-z"]),
      withValue: ["-e", "-o", "-s", "-u", "-a", "-b", "-I", "-O", "-S", "-P", "-E", "-X"],
    },
    0,
    ["-p"],
  ),
  script: scriptOption({ flags: ["-a", "-e", "-f", "-q", "--append", "--return", "--flush", "--quiet"] }),
  su: scriptOption({ flags: ["-", "-l", "--login", "-m", "-p", "--preserve-environment", "-P", "--pty"] }, [
    "-s",
    "--shell",
    "--session-command",
  ]),
  watch: {
    strict: true,
    unwrap(name, args) {
      const spec: OptionSpec = {
        flags: ["-b", "--beep", "-c", "--color", "-C", "--no-color", "-d", "--differences", "-e"]
          .concat(["--errexit", "-g", "--chgexit", "-t", "--no-title", "-x", "--exec", "-p", "--precise"])
          .concat(["-r", "--no-rerun", "-w", "--no-wrap"]),
        withValue: ["-n", "--interval", "-q", "--equexit"],
      };
      const at = skipOptions(name, args, spec);
      const inner = args.slice(at);
      const exec = args.slice(0, at).some((w) => w.text === "-x" || w.text === "--exec");
      // Without -x, watch joins its arguments and runs them with `sh -c`.
      if (exec) return { reportSelf: true, inner: inner.length > 0 ? [inner] : [], scripts: [] };
      return {
        reportSelf: true,
        inner: [],
        scripts: inner.length > 0 ? [inner.map((w) => w.text).join(" ")] : [],
      };
    },
  },
};
