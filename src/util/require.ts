/**
 * Loads a package the CLI bundle keeps outside (the MCP SDK, yaml) when a command first
 * needs it. The bundle is CommonJS compiled from a code cache (bin/compile-cache.js),
 * where import() has no loader to call, so these are required: each of them ships a
 * CommonJS build.
 */
import { createRequire } from 'node:module';

export const requirePackage = createRequire(import.meta.url);
