// node --import ./trace-sdk.mjs …: prints "loaded the MCP SDK" on stderr when any module of the SDK is loaded.
import { register } from 'node:module';

const hooks = `
export async function load(url, context, next) {
  if (url.includes('/@modelcontextprotocol/sdk/')) console.error('loaded the MCP SDK: ' + url.slice(url.indexOf('/@modelcontextprotocol/sdk/')));
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
