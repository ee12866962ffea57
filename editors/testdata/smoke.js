// Runs ../vscode/extension.js against fake-vscode.js and a real `vigil
// lsp` ($VIGIL): open a document with an error, fix it, then ask every
// provider once. Prints one JSON object with what came back.
'use strict';

const path = require('path');
const Module = require('module');
const fake = require('./fake-vscode.js');
const origResolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'vscode') return require.resolve('./fake-vscode.js');
  return origResolve.call(this, request, ...rest);
};
const ext = require(path.join(__dirname, '..', 'vscode', 'extension.js'));

const file = process.argv[2];
const uri = 'file://' + file;
const good = 'const N = 3\nvar x : 0 .. N = 0\naction inc when x < N -> x\' = x + 1\nproperty p { unsafe x > N }\n';
const bad = good.replace('x < N', 'x < NN');
const doc = (text, version) => ({ uri: fake.Uri.parse(uri), languageId: 'vigil-spec', version, getText: () => text });
const { listeners, providers, diagnostics } = fake._test;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitDiags(pred) {
  for (let i = 0; i < 200; i++) {
    const d = diagnostics.get(uri);
    if (d && pred(d)) return d;
    await sleep(25);
  }
  throw new Error('no diagnostics: ' + JSON.stringify(diagnostics.get(uri)));
}

(async () => {
  const ctx = { subscriptions: [] };
  ext.activate(ctx);
  const out = {};
  listeners.open.forEach((f) => f(doc(bad, 1)));
  const d1 = await waitDiags((d) => d.length > 0);
  out.error = { code: d1[0].code, message: d1[0].message, line: d1[0].range.start.line, character: d1[0].range.start.character };
  const acts = await providers.codeActions.provideCodeActions(doc(bad, 1), d1[0].range, { diagnostics: d1 });
  out.fix = acts.map((a) => a.title + ': ' + a.edit.edits.map((e) => e.newText).join());
  const fixed = doc(good.replace('const N = 3', 'const   N=3'), 2);
  listeners.change.forEach((f) => f({ document: fixed }));
  await waitDiags((d) => d.length === 0);
  listeners.save.forEach((f) => f(fixed)); // the server checks the open documents again
  await waitDiags((d) => d.length === 0);
  out.fixed = true;
  const pos = new fake.Position(1, 14); // the N in x's range
  const hover = await providers.hover.provideHover(fixed, pos);
  out.hover = hover.contents.value;
  const defs = await providers.definition.provideDefinition(fixed, pos);
  out.definition = defs.map((l) => [l.range.start.line, l.range.start.character]);
  const refs = await providers.references.provideReferences(fixed, pos, { includeDeclaration: true });
  out.references = refs.length;
  const edits = await providers.format.provideDocumentFormattingEdits(fixed);
  out.formatted = edits.length === 1 ? edits[0].newText.split('\n')[0] : null;
  const items = await providers.completion.provideCompletionItems(fixed, pos);
  out.completion = items.filter((i) => i.kind !== 13).map((i) => i.label); // 13: keywords
  const ren = await providers.rename.provideRenameEdits(fixed, pos, 'LIMIT');
  out.rename = ren.edits.map((e) => `${e.range.start.line}:${e.range.start.character}`);
  const syms = await providers.symbols.provideDocumentSymbols(fixed);
  out.symbols = syms.map((s) => s.name);
  listeners.close.forEach((f) => f(fixed));
  await ext.deactivate();
  console.log(JSON.stringify(out));
  process.exit(0);
})().catch((e) => { console.error(e.stack || String(e)); process.exit(1); });
