/**
 * --discover: the well-known places where MCP clients keep their server configs, for this
 * user and for the project in the working directory. Finding them starts nothing.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface KnownConfig {
  client: string;
  scope: 'user' | 'project';
  path: string;
}

export interface DiscoverContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

/** Every location checked, whether or not the file exists (the README lists the same). */
export function knownConfigLocations(ctx: DiscoverContext): KnownConfig[] {
  const platform = ctx.platform ?? process.platform;
  const home = ctx.env.HOME ?? ctx.env.USERPROFILE ?? '';
  const xdg = ctx.env.XDG_CONFIG_HOME || join(home, '.config');
  const appData = ctx.env.APPDATA || join(home, 'AppData', 'Roaming');
  const macSupport = join(home, 'Library', 'Application Support');
  // Where desktop apps keep per-user settings on this platform.
  const appDir = platform === 'darwin' ? macSupport : platform === 'win32' ? appData : xdg;
  const list: KnownConfig[] = [];
  const user = (client: string, path: string) => home !== '' && list.push({ client, scope: 'user', path });
  const project = (client: string, ...parts: string[]) => list.push({ client, scope: 'project', path: join(ctx.cwd, ...parts) });

  user('Claude Desktop', join(appDir, 'Claude', 'claude_desktop_config.json'));
  user('Claude Code', join(home, '.claude.json'));
  project('Claude Code', '.mcp.json');
  user('Cursor', join(home, '.cursor', 'mcp.json'));
  project('Cursor', '.cursor', 'mcp.json');
  user('VS Code', join(appDir, 'Code', 'User', 'mcp.json'));
  project('VS Code', '.vscode', 'mcp.json');
  // Before mcp.json, VS Code kept servers under "mcp" in its settings, and still reads them there.
  user('VS Code', join(appDir, 'Code', 'User', 'settings.json'));
  project('VS Code', '.vscode', 'settings.json');
  user('Gemini CLI', join(home, '.gemini', 'settings.json'));
  project('Gemini CLI', '.gemini', 'settings.json');
  user('Windsurf', join(home, '.codeium', 'windsurf', 'mcp_config.json'));
  user('opencode', join(xdg, 'opencode', 'opencode.json'));
  user('opencode', join(xdg, 'opencode', 'opencode.jsonc'));
  project('opencode', 'opencode.json');
  project('opencode', 'opencode.jsonc');
  user('Zed', join(platform === 'darwin' ? join(home, '.config') : xdg, 'zed', 'settings.json'));
  project('Zed', '.zed', 'settings.json');
  // One file can be two clients' (a home directory that is also the project).
  const seen = new Set<string>();
  return list.filter((c) => !seen.has(c.path) && seen.add(c.path));
}

/** The known config files that exist. */
export function discoverConfigs(ctx: DiscoverContext): KnownConfig[] {
  return knownConfigLocations(ctx).filter((c) => existsSync(c.path) && statSync(c.path).isFile());
}

/**
 * The client config files a run reads: its --mcp-config files and, with --discover, the known
 * ones that exist (paths as given, or absolute). Reads none of them.
 */
export function clientConfigFiles(f: { mcpConfig?: readonly string[]; discover?: boolean }, ctx: DiscoverContext): string[] {
  return [...(f.mcpConfig ?? []), ...(f.discover ? discoverConfigs(ctx).map((c) => c.path) : [])];
}
