/**
 * The writes an EDITOR of a shared vehicle may make (issue 22): the vehicle's records (insurance,
 * expenses, fuel, revisions), its renewals, and receipt scans confirmed into them. The BOLA matrix
 * does not send these as the editor; every other write must refuse the editor, and every write the
 * viewer. One definition for both runs of the fuzzer: `npm run fuzz` (cli.ts) and the test suite's.
 */
export const editorMay = (operation: string): boolean =>
  /^(POST|PUT|DELETE) \/api\/(insurance|expenses|fuel-consumptions|revision)(\/|$)/.test(operation) ||
  /^(POST|PUT|DELETE) \/api\/vehicles\/\{id\}\/renewals/.test(operation) ||
  /^POST \/api\/[a-z]+-ocr\//.test(operation);
