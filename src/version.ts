import { existsSync, readFileSync } from 'node:fs';

/** The package root (holds package.json, docs/, schemas/): the nearest ancestor of this module with a package.json. */
function findRoot(): URL {
  let dir = new URL('./', import.meta.url);
  for (let i = 0; i < 6; i++) {
    if (existsSync(new URL('package.json', dir))) return dir;
    dir = new URL('../', dir);
  }
  throw new Error(`cannot find the mcp-annotate package root above ${import.meta.url}`);
}

export const PACKAGE_ROOT = findRoot();

interface PackageJson {
  name: string;
  version: string;
  homepage: string;
  repository: { url: string };
}

let pkg: PackageJson | undefined;
function readPackage(): PackageJson {
  pkg ??= JSON.parse(readFileSync(new URL('package.json', PACKAGE_ROOT), 'utf8')) as PackageJson;
  return pkg;
}

export const TOOL_NAME = 'mcp-annotate';

export function version(): string {
  return readPackage().version;
}

/** https://github.com/<owner>/<repo>, from package.json. */
export function repositoryUrl(): string {
  return readPackage().repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
}

/** Where a rule's doc page is published. */
export function ruleDocUrl(id: string): string {
  return `${repositoryUrl()}/blob/main/docs/rules/${id}.md`;
}
