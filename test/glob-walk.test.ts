/**
 * An error thrown inside fast-glob's walk (in the callback of a directory read) escaped as an
 * uncaught exception and ended the run with a stack trace. Here the up-front compile check is
 * fooled (the project's picomatch is mocked to compile anything), so the regular expression
 * fast-glob's own picomatch builds throws inside the walk: the scan fails as an input error.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { tempDir } from './helpers/cli.js';

vi.mock('picomatch', async (original) => {
  const real = ((await original()) as { default: typeof import('picomatch') }).default;
  const fooled = Object.assign((...args: Parameters<typeof real>) => real(...args), real, { makeRe: () => /^$/ });
  return { default: fooled };
});

const { expandTargets } = await import('../src/sources/files.js');

describe('expandTargets: an error thrown inside fast-glob\'s walk', () => {
  it('is that pattern\'s input error, not an uncaught exception', async () => {
    const dir = tempDir({ 'a.json': '{}' });
    writeFileSync(join(dir, 'b.json'), '{}');
    const big = '*' + 'a'.repeat(40_000) + '.json';
    const r = await expandTargets([big, 'a.json'], dir);
    expect(r.files).toEqual([join(dir, 'a.json')]);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]!.message).toMatch(/^\*a{78}…: cannot expand this pattern: Regular expression too large$/);
  });
});
