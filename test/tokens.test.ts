/**
 * The identifier tokeniser the heuristic rules match verbs with: whole tokens only.
 */
import { describe, expect, it } from 'vitest';
import { hasToken, segments, tokenize } from '../src/util/tokens.js';

describe('tokenize', () => {
  it.each([
    ['delete_branch', ['delete', 'branch']],
    ['DELETE_ALL_FILES', ['delete', 'all', 'files']],
    ['deleteBranch', ['delete', 'branch']],
    ['DeleteBranch', ['delete', 'branch']],
    ['getHTTPResponse', ['get', 'http', 'response']],
    ['HTTPServer', ['http', 'server']],
    ['XMLHttpRequest', ['xml', 'http', 'request']],
    ['parseJSON', ['parse', 'json']],
    ['listURLs', ['list', 'urls']],
    ['getUserIDsAndNames', ['get', 'user', 'ids', 'and', 'names']],
    ['remove-label', ['remove', 'label']],
    ['github.delete_branch', ['github', 'delete', 'branch']],
    ['fs/read_file', ['fs', 'read', 'file']],
    ['mcp__github__create_issue', ['mcp', 'github', 'create', 'issue']],
    ['s3Bucket', ['s', '3', 'bucket']],
    ['oauth2Token', ['oauth', '2', 'token']],
    ['v2.list_items', ['v', '2', 'list', 'items']],
    ['get_item_42', ['get', 'item', '42']],
    ['isS3Public', ['is', 's', '3', 'public']],
    ['dry run', ['dry', 'run']],
    ['  __leading__and__trailing__  ', ['leading', 'and', 'trailing']],
    ['', []],
    ['___', []],
    ['ÄnderungLöschen', ['änderung', 'löschen']],
  ])('%s', (input, expected) => {
    expect(tokenize(input)).toEqual(expected);
  });

  it('matches verbs as whole tokens only', () => {
    expect(hasToken(tokenize('get_deleted_items'), 'delete')).toBe(false);
    expect(hasToken(tokenize('undelete'), 'delete')).toBe(false);
    expect(hasToken(tokenize('undeleteFile'), 'delete')).toBe(false);
    expect(hasToken(tokenize('reset_password'), 'set')).toBe(false);
    expect(hasToken(tokenize('dataset_list'), 'set')).toBe(false);
    expect(hasToken(tokenize('repo_delete'), 'delete')).toBe(true);
    expect(hasToken(tokenize('forceDelete'), 'delete')).toBe(true);
  });

  it('lower-cases every token', () => {
    for (const t of tokenize('FooBAR_Baz-QUX.quux')) expect(t).toBe(t.toLowerCase());
  });
});

describe('segments', () => {
  it.each([
    ['delete_branch', [['delete', 'branch']]],
    ['github.delete_branch', [['github'], ['delete', 'branch']]],
    ['fs/readFile', [['fs'], ['read', 'file']]],
    ['mcp__github__create_issue', [['mcp'], ['github'], ['create', 'issue']]],
    ['server:tool_name', [['server'], ['tool', 'name']]],
    ['a..b', [['a'], ['b']]],
    ['', []],
  ])('%s', (input, expected) => {
    expect(segments(input)).toEqual(expected);
  });
});
