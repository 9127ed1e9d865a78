/** Scripted-model turns several socket suites play; each suite adds its own turns after them. */

/** "ask" → one single-choice AskUserQuestion (Red / Blue), then the model echoes the result. */
export const ASK_COLOUR_TURN = `
  - match: ask
    steps:
      - tools:
          - name: AskUserQuestion
            input:
              questions:
                - question: Which colour?
                  header: Colour
                  multiSelect: false
                  options: [{ label: Red }, { label: Blue }]
      - say: "Noted: {{result}}"`;

/** "write" → a Write of notes.md, which asks permission in the default mode. */
export const WRITE_NOTES_TURN = `
  - match: write
    steps:
      - tools:
          - name: Write
            input: { path: notes.md, content: "# Notes\\n" }
      - say: "Done: {{result}}"`;
