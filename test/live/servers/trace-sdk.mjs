// node --import ./trace-sdk.mjs …: prints "loaded the MCP SDK" on stderr when any module of the SDK is loaded,
// as an ES module (seen by a loader hook) or required as CommonJS (in the require cache at exit).
import { Module, register } from 'node:module';

const SDK = '/@modelcontextprotocol/sdk/';
const hooks = `
export async function load(url, context, next) {
  if (url.includes('${SDK}')) console.error('loaded the MCP SDK: ' + url.slice(url.indexOf('${SDK}')));
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
process.on('exit', () => {
  const required = Object.keys(Module._cache).find((file) => file.includes(SDK));
  if (required) console.error(`loaded the MCP SDK: ${required.slice(required.indexOf(SDK))}`);
});
