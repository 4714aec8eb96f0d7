/**
 * Mutants of the gallery with no saved failing run yet, and why (for example: the clause they
 * break is checked only by a directed case, or a program cannot express the input they need).
 * Each entry is a lead for a new checker or program behaviour; `certify` still catches the
 * mutants whose clause has a directed case. Empty since every mutant of the gallery is found by
 * `dsh-kit fuzz --time 30s` (scenarios/README.md has the table).
 *
 * When a campaign finds one, save its shrunk run file here as `<mutant>.json` and drop the entry.
 */
export const NOT_FOUND: Readonly<Record<string, string>> = {}
