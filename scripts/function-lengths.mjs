// Lines per file and functions longer than a limit (default 70), tests and fixtures left out.
// Usage: node scripts/function-lengths.mjs <dir> [limit]; FILES=1 also lists every file with its longest function.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const [root, limArg] = process.argv.slice(2);
const lim = Number(limArg ?? 70);
const files = [];
(function walk(d) {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules') walk(p);
    } else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !/fixtures/.test(e.name))
      files.push(p);
  }
})(root);
const long = [];
const perFile = [];
for (const f of files) {
  const src = fs.readFileSync(f, 'utf8');
  const sf = ts.createSourceFile(f, src, ts.ScriptTarget.Latest, true);
  let maxF = 0,
    maxName = '';
  const visit = (n) => {
    if (
      ts.isFunctionDeclaration(n) ||
      ts.isMethodDeclaration(n) ||
      ts.isArrowFunction(n) ||
      ts.isFunctionExpression(n)
    ) {
      const a = sf.getLineAndCharacterOfPosition(n.getStart()).line,
        b = sf.getLineAndCharacterOfPosition(n.getEnd()).line;
      const len = b - a + 1;
      const name =
        n.name?.getText?.() ??
        (ts.isVariableDeclaration(n.parent)
          ? n.parent.name.getText()
          : ts.isPropertyAssignment(n.parent)
            ? n.parent.name.getText()
            : '(anon)');
      if (len > maxF) {
        maxF = len;
        maxName = name;
      }
      if (len > lim) long.push([len, f, name]);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  perFile.push([src.split('\n').length, f, maxF, maxName]);
}
if (process.env.FILES)
  for (const [l, f, m, n] of perFile.sort((a, b) => b[0] - a[0]))
    console.log(`${l}\t${f}\tlongest ${n} ${m}`);
console.log(`functions over ${lim} lines: ${long.length}`);
for (const [l, f, n] of long.sort((a, b) => b[0] - a[0])) console.log(`  ${l}\t${f}\t${n}`);
