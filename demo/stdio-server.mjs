// The demo's tools over stdio: a real MCP server built with @modelcontextprotocol/sdk 1.29.0, McpServer
// over StdioServerTransport, started by a client as a child process (as Claude Desktop, Cursor or
// `mcp-triage probe --stdio -- node demo/stdio-server.mjs` start it).
//
//   node demo/stdio-server.mjs [--unannotated]
//   Test-only switches (the stdio tests start misbehaving real servers with them):
//     --log-to-stdout      console.log at start and in every tool call, as a careless author does:
//                          lines on stdout that are not JSON-RPC
//     --crash-in-tool NAME the tool NAME crashes the process (an exception nobody catches, thrown
//                          outside the SDK's handler), after a line on stderr
//     --hang-in-tool NAME  the tool NAME never answers (a backend that hangs)
//     --echo-env VAR       writes "using key <value of VAR>" to stderr at start (a secret in the tail)
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { registerDemoTools } from './tools.mjs';

function arg(name) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
const logToStdout = process.argv.includes('--log-to-stdout');
const crashIn = arg('crash-in-tool');
const hangIn = arg('hang-in-tool');
const echoEnv = arg('echo-env');

if (echoEnv) console.error(`demo stdio server: using key ${process.env[echoEnv] || ''}`);
if (logToStdout) console.log('demo stdio server starting (TS SDK 1.29.0)');
const server = new McpServer({ name: 'mcp-triage-demo-stdio', version: '1.29.0' });
registerDemoTools(server, {
  unannotated: process.argv.includes('--unannotated'),
  onCall(name) {
    if (logToStdout) console.log(`tool call: ${name}`);
    if (name === crashIn) {
      console.error(`demo stdio server: backend connection lost in ${name}`);
      setImmediate(() => {
        throw new Error(`unhandled failure in ${name}`);
      });
      // Never answers: the process is gone before the handler could.
      return new Promise(() => {});
    }
    if (name === hangIn) return new Promise(() => {});
    return undefined;
  },
});
await server.connect(new StdioServerTransport());
console.error('demo stdio server ready on stdin/stdout');
