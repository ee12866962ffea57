// A stand-in for the `vscode` module, just large enough to run
// ../vscode/extension.js under node: it records what the extension
// registers so that smoke.js can call the providers.
'use strict';

class Position { constructor(line, character) { this.line = line; this.character = character; } }
class Range { constructor(start, end) { this.start = start; this.end = end; } }
class Location { constructor(uri, range) { this.uri = uri; this.range = range; } }
class Diagnostic { constructor(range, message, severity) { this.range = range; this.message = message; this.severity = severity; } }
class Hover { constructor(contents, range) { this.contents = contents; this.range = range; } }
class MarkdownString { constructor(value) { this.value = value; } }
class CompletionItem { constructor(label, kind) { this.label = label; this.kind = kind; } }
class DocumentSymbol {
  constructor(name, detail, kind, range, selectionRange) {
    Object.assign(this, { name, detail, kind, range, selectionRange });
  }
}
class CodeAction { constructor(title, kind) { this.title = title; this.kind = kind; } }
class WorkspaceEdit {
  constructor() { this.edits = []; }
  replace(uri, range, newText) { this.edits.push({ uri: uri.toString(), range, newText }); }
}
const Uri = { parse: (s) => ({ s, toString: () => s }) };
const listeners = { open: [], change: [], close: [], save: [] };
const providers = {};
const diagnostics = new Map();
const config = { path: process.env.VIGIL, defines: [] };

module.exports = {
  CodeAction, WorkspaceEdit, CodeActionKind: { QuickFix: 'quickfix' },
  Position, Range, Location, Diagnostic, Hover, MarkdownString, CompletionItem, DocumentSymbol, Uri,
  DiagnosticSeverity: { Error: 0, Warning: 1 },
  CompletionItemKind: { Text: 0 },
  SymbolKind: { Variable: 12 },
  TextEdit: { replace: (range, newText) => ({ range, newText }) },
  window: {
    createOutputChannel: () => ({ append: (s) => process.stderr.write(s), appendLine: (s) => process.stderr.write(s + '\n'), dispose() {} }),
    showErrorMessage: (m) => { process.stderr.write('error: ' + m + '\n'); process.exit(3); },
  },
  workspace: {
    textDocuments: [],
    getConfiguration: () => ({ get: (k, d) => (config[k] !== undefined ? config[k] : d) }),
    onDidOpenTextDocument: (f) => listeners.open.push(f),
    onDidChangeTextDocument: (f) => listeners.change.push(f),
    onDidCloseTextDocument: (f) => listeners.close.push(f),
    onDidSaveTextDocument: (f) => listeners.save.push(f),
  },
  languages: {
    createDiagnosticCollection: () => ({ set: (uri, ds) => diagnostics.set(uri.toString(), ds), dispose() {} }),
    registerDocumentFormattingEditProvider: (s, p) => { providers.format = p; },
    registerHoverProvider: (s, p) => { providers.hover = p; },
    registerDefinitionProvider: (s, p) => { providers.definition = p; },
    registerReferenceProvider: (s, p) => { providers.references = p; },
    registerCompletionItemProvider: (s, p) => { providers.completion = p; },
    registerDocumentSymbolProvider: (s, p) => { providers.symbols = p; },
    registerRenameProvider: (s, p) => { providers.rename = p; },
    registerCodeActionsProvider: (s, p) => { providers.codeActions = p; },
  },
  // for smoke.js
  _test: { listeners, providers, diagnostics },
};
