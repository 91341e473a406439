/** Set-up for every test file (vitest.config.ts): the temporary directories it made go after its last test. */
import { afterAll } from 'vitest';
import { removeTempDirs } from './cli.js';

afterAll(removeTempDirs);
