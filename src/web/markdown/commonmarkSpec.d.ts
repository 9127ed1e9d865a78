declare module "commonmark-spec" {
  export interface SpecExample {
    markdown: string;
    html: string;
    section: string;
    number: number;
  }
  export const tests: SpecExample[];
}
