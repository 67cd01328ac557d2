// The public captures' files (fixtures/exchanges/**.json), sorted: one walk for every script that
// reads them all.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function captureFiles(root = join(import.meta.dirname, '..')) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.json')) files.push(path);
    }
  };
  walk(join(root, 'fixtures/exchanges'));
  return files.sort();
}
