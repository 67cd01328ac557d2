// The size budget (scripts/size-budget.json): each load's last measured size and one stated headroom;
// a load's bar is its measurement plus the headroom, rounded down. The history of the numbers is in
// git (`git log -p scripts/size-budget.json`), each change's reasons in its commit.
import { readFileSync } from 'node:fs';

/** The bars of `file`, by key (`visit_gzip`, …, `first_load_page_bytes`); throws on a malformed file. */
export function bars(file) {
  const budget = JSON.parse(readFileSync(file, 'utf8'));
  const headroom = budget.headroom_percent;
  if (typeof headroom !== 'number' || headroom < 1 || headroom > 2) throw new Error(`${file}: headroom_percent must be 1 to 2, not ${headroom}`);
  const out = {};
  for (const [key, measured] of Object.entries(budget.measured || {})) {
    if (!Number.isInteger(measured) || measured <= 0) throw new Error(`${file}: measured.${key} must be a positive integer`);
    out[key] = Math.floor(measured * (1 + headroom / 100));
  }
  return out;
}
