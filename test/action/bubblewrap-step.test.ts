/**
 * The action's bubblewrap step (scripts/action/bubblewrap.sh) on the runners it meets, each played by
 * stand-in commands on a PATH of the test's own that log how they were called: bwrap already working,
 * bwrap missing and installed with `sudo apt-get install -y bubblewrap`, an install that fails, Ubuntu
 * 24.04's AppArmor refusing bwrap's user namespace, and a runner that is not Linux. The step never fails
 * the job; what it could not fix is a `::warning::` on the job page.
 */
import { afterEach, describe, expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const SCRIPT = resolve(import.meta.dir, "..", "..", "scripts", "action", "bubblewrap.sh");
const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A runner: a bin folder of stand-ins, each logging its arguments to `calls`. */
function runner(commands: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "bubblewrap-step-"));
  folders.push(dir);
  const bin = join(dir, "bin");
  const log = join(dir, "calls");
  writeFileSync(log, "");
  mkdirSync(bin);
  for (const real of ["cat", "printf"]) {
    const path = Bun.which(real);
    if (path !== null) symlinkSync(path, join(bin, real));
  }
  const stand = (name: string, body: string) => {
    writeFileSync(join(bin, name), `#!/bin/sh\necho "${name} $*" >> "${log}"\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  stand("uname", "echo Linux");
  stand("id", "echo 1001");
  stand("sudo", '[ "$1" = -n ] && shift; exec "$@"');
  for (const [name, body] of Object.entries(commands)) stand(name, body);
  return {
    dir,
    bin,
    stand,
    run() {
      const proc = Bun.spawnSync(["/bin/sh", SCRIPT], { env: { PATH: bin }, stdout: "pipe", stderr: "pipe" });
      return {
        code: proc.exitCode,
        stdout: proc.stdout.toString(),
        calls: readFileSync(log, "utf8").trim().split("\n").filter(Boolean),
      };
    },
  };
}

describe("the action's bubblewrap step", () => {
  test("bwrap already works: nothing is installed or changed", () => {
    const result = runner({ bwrap: "exit 0" }).run();
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("agent: bubblewrap works\n");
    expect(result.calls.filter((c) => !c.startsWith("uname") && !c.startsWith("bwrap"))).toEqual([]);
  });

  test("bwrap missing: sudo apt-get install -y bubblewrap, then the sandbox works", () => {
    const r = runner({});
    // The stand-in apt-get installs a working bwrap into the runner's bin folder.
    r.stand("apt-get", `printf '#!/bin/sh\\nexit 0\\n' > "${r.bin}/bwrap"; chmod 755 "${r.bin}/bwrap"`);
    symlinkSync(Bun.which("chmod") ?? "/bin/chmod", join(r.bin, "chmod"));
    const result = r.run();
    expect(result.code).toBe(0);
    expect(result.calls).toContain("sudo -n apt-get install -y bubblewrap");
    expect(existsSync(join(r.bin, "bwrap"))).toBe(true);
    expect(result.stdout).toContain("agent: bubblewrap works");
  });

  test("an install that fails even after apt-get update: a warning, and the step still succeeds", () => {
    const result = runner({ "apt-get": "exit 100" }).run();
    expect(result.code).toBe(0);
    expect(result.calls).toContain("apt-get install -y bubblewrap");
    expect(result.calls).toContain("apt-get update");
    expect(result.stdout).toContain("::warning::agent: bubblewrap could not be installed");
  });

  test("Ubuntu 24.04's AppArmor refuses the user namespace: the sysctl is set back to 0 and bwrap works", () => {
    const r = runner({});
    const allowed = join(r.dir, "userns-allowed");
    r.stand(
      "bwrap",
      `[ -e "${allowed}" ] && exit 0; echo "bwrap: setting up uid map: Permission denied" >&2; exit 1`,
    );
    r.stand(
      "sysctl",
      `[ "$1" = -n ] && { [ -e "${allowed}" ] && echo 0 || echo 1; exit 0; }; : > "${allowed}"`,
    );
    const result = r.run();
    expect(result.code).toBe(0);
    expect(result.calls).toContain("sudo -n sysctl -w kernel.apparmor_restrict_unprivileged_userns=0");
    expect(result.stdout).toContain("agent: bubblewrap works");
  });

  test("bwrap refused for another reason: a warning quoting bwrap, and the step still succeeds", () => {
    const result = runner({
      bwrap: 'echo "bwrap: No permissions to create new namespace" >&2; exit 1',
      sysctl: "echo 0",
    }).run();
    expect(result.code).toBe(0);
    expect(result.calls.some((c) => c.includes("sysctl -w"))).toBe(false);
    expect(result.stdout).toContain(
      "::warning::agent: bwrap does not work on this runner (bwrap: No permissions to create new namespace)",
    );
  });

  test("not Linux: a notice, and nothing is installed", () => {
    const r = runner({ "apt-get": "exit 0" });
    r.stand("uname", "echo Darwin");
    const result = r.run();
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("::notice::agent: the sandbox is Linux only");
    expect(result.calls.filter((c) => !c.startsWith("uname"))).toEqual([]);
  });
});
