// braces (fast-glob's brace expansion, through micromatch) ships no types: what glob.ts uses of it.
declare module 'braces' {
  /** A node of the tree braces.parse makes. */
  export interface BraceNode {
    type: string;
    value?: string;
    nodes?: BraceNode[];
    invalid?: boolean;
    dollar?: boolean;
    ranges?: number;
  }
  const braces: {
    parse(input: string, options?: { keepEscaping?: boolean }): BraceNode;
  };
  export default braces;
}
