/** What `agent mcp` runs: `list` (mcp-run.ts), `login` and `logout` (mcp-login.ts), as one module for the command table. */

export { runMcpLogin, runMcpLogout } from "./mcp-login.ts";
export { runMcpList } from "./mcp-run.ts";
