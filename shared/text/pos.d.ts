// Types for `pos` (jsPOS, a Brill/fasttag part-of-speech tagger), which ships none.
declare module 'pos' {
  export class Tagger {
    tag(words: string[]): [string, string][];
  }
}
