// The initial JavaScript budget (docs/dashboard.md): every script
// index.html loads, gzipped, at most 250 KB. Run after `vite build`.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const budget = 250 * 1024;
const html = readFileSync(new URL("../dist/index.html", import.meta.url), "utf8");
const scripts = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="\/dashboard\/([^"]+\.js)"/g)].map((m) => m[1]);
if (scripts.length === 0) throw new Error("dist/index.html loads no script");
let total = 0;
for (const s of scripts) total += gzipSync(readFileSync(new URL(`../dist/${s}`, import.meta.url))).length;
const kb = (total / 1024).toFixed(1);
if (total > budget) {
  console.error(`initial JavaScript is ${kb} KB gzipped, over the 250 KB budget`);
  process.exit(1);
}
console.log(`initial JavaScript: ${kb} KB gzipped (budget 250 KB)`);
