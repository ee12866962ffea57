// vigil .spec support for VS Code: starts `vigil lsp` and connects it to the
// editor. It is a small LSP client written against the `vscode` API alone
// (no vscode-languageclient, no npm install, no build step), covering what
// `vigil lsp` serves: diagnostics, formatting, hover, definition,
// references, completion and document symbols. Documents are synchronised
// whole on every change, as the server asks (textDocumentSync.change = 1).
'use strict';

const vscode = require('vscode');
const cp = require('child_process');

const LANG = 'vigil-spec';

class Client {
  constructor(command, args, output) {
    this.output = output;
    this.nextId = 1;
    this.pending = new Map();
    this.buffer = Buffer.alloc(0);
    this.onNotification = () => {};
    this.proc = cp.spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.on('error', (err) => {
      vscode.window.showErrorMessage(`vigil lsp could not start (${command}): ${err.message}; set vigil.path`);
    });
    this.proc.on('exit', (code) => {
      this.closed = true;
      for (const { reject } of this.pending.values()) reject(new Error('vigil lsp exited'));
      this.pending.clear();
      if (code !== 0 && code !== null) output.appendLine(`vigil lsp exited with code ${code}`);
    });
    this.proc.stdin.on('error', () => {}); // a write after exit: reported by 'exit'
    this.proc.stderr.on('data', (d) => output.append(d.toString()));
    this.proc.stdout.on('data', (d) => this.receive(d));
  }

  // receive parses Content-Length framed messages out of the stream.
  receive(data) {
    this.buffer = Buffer.concat([this.buffer, data]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const header = this.buffer.slice(0, headerEnd).toString('ascii');
      const m = /Content-Length:\s*(\d+)/i.exec(header);
      if (!m) {
        this.buffer = this.buffer.slice(headerEnd + 4);
        continue;
      }
      const len = Number(m[1]);
      if (this.buffer.length < headerEnd + 4 + len) return;
      const body = this.buffer.slice(headerEnd + 4, headerEnd + 4 + len).toString('utf8');
      this.buffer = this.buffer.slice(headerEnd + 4 + len);
      let msg;
      try {
        msg = JSON.parse(body);
      } catch (e) {
        this.output.appendLine(`vigil lsp sent bad JSON: ${e.message}`);
        continue;
      }
      if (msg.id !== undefined && msg.id !== null && this.pending.has(msg.id)) {
        const { resolve, reject } = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (msg.error) reject(new Error(msg.error.message));
        else resolve(msg.result);
      } else if (msg.method) {
        this.onNotification(msg.method, msg.params);
      } else if (msg.error) {
        this.output.appendLine(`vigil lsp: ${msg.error.message}`);
      }
    }
  }

  send(msg) {
    if (this.closed) return false;
    const body = Buffer.from(JSON.stringify(Object.assign({ jsonrpc: '2.0' }, msg)), 'utf8');
    this.proc.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.proc.stdin.write(body);
    return true;
  }

  request(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (!this.send({ id, method, params })) {
        this.pending.delete(id);
        reject(new Error('vigil lsp is not running'));
      }
    });
  }

  notify(method, params) {
    this.send({ method, params });
  }
}

// Conversions between LSP and vscode values (both count UTF-16 units).
const toPos = (p) => new vscode.Position(p.line, p.character);
const toRange = (r) => new vscode.Range(toPos(r.start), toPos(r.end));
const toLocation = (l) => new vscode.Location(vscode.Uri.parse(l.uri), toRange(l.range));
const fromPos = (p) => ({ line: p.line, character: p.character });
const docParams = (doc) => ({ textDocument: { uri: doc.uri.toString() } });
const posParams = (doc, pos) => ({ textDocument: { uri: doc.uri.toString() }, position: fromPos(pos) });

const toWorkspaceEdit = (we) => {
  const edit = new vscode.WorkspaceEdit();
  for (const [uri, edits] of Object.entries((we && we.changes) || {})) {
    for (const e of edits) edit.replace(vscode.Uri.parse(uri), toRange(e.range), e.newText);
  }
  return edit;
};

// LSP CompletionItemKind and SymbolKind are vscode's enums plus one.
const completionKind = (k) => (k ? k - 1 : vscode.CompletionItemKind.Text);
const symbolKind = (k) => (k ? k - 1 : vscode.SymbolKind.Variable);

let client;

function activate(context) {
  const output = vscode.window.createOutputChannel('vigil');
  const config = vscode.workspace.getConfiguration('vigil');
  const args = ['lsp'];
  for (const d of config.get('defines', [])) args.push('-D', d);
  const c = new Client(config.get('path', 'vigil'), args, output);
  client = c;

  const diagnostics = vscode.languages.createDiagnosticCollection('vigil');
  context.subscriptions.push(diagnostics, output);
  c.onNotification = (method, params) => {
    if (method !== 'textDocument/publishDiagnostics') return;
    diagnostics.set(
      vscode.Uri.parse(params.uri),
      params.diagnostics.map((d) => {
        const sev = d.severity === 2 ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Error;
        const diag = new vscode.Diagnostic(toRange(d.range), d.message, sev);
        diag.code = d.code;
        diag.source = d.source;
        return diag;
      }),
    );
  };

  const ready = c.request('initialize', {
    processId: process.pid,
    clientInfo: { name: 'vscode-vigil-spec' },
    rootUri: null,
    capabilities: {},
  }).then(() => c.notify('initialized', {}));

  const isSpec = (doc) => doc.languageId === LANG;
  const open = (doc) => {
    if (!isSpec(doc)) return;
    ready.then(() => c.notify('textDocument/didOpen', {
      textDocument: { uri: doc.uri.toString(), languageId: LANG, version: doc.version, text: doc.getText() },
    }));
  };
  vscode.workspace.textDocuments.forEach(open);
  context.subscriptions.push(
    vscode.workspace.onDidOpenTextDocument(open),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (!isSpec(e.document)) return;
      ready.then(() => c.notify('textDocument/didChange', {
        textDocument: { uri: e.document.uri.toString(), version: e.document.version },
        contentChanges: [{ text: e.document.getText() }],
      }));
    }),
    vscode.workspace.onDidCloseTextDocument((doc) => {
      if (isSpec(doc)) ready.then(() => c.notify('textDocument/didClose', docParams(doc)));
    }),
    // a saved file may be imported by another open one: the server
    // checks them again
    vscode.workspace.onDidSaveTextDocument((doc) => {
      if (isSpec(doc)) ready.then(() => c.notify('textDocument/didSave', docParams(doc)));
    }),
  );

  const selector = { language: LANG };
  const ask = (method, params) => ready.then(() => c.request(method, params)).catch((err) => {
    output.appendLine(`${method}: ${err.message}`);
    return null;
  });
  context.subscriptions.push(
    vscode.languages.registerDocumentFormattingEditProvider(selector, {
      provideDocumentFormattingEdits: (doc) => ask('textDocument/formatting', docParams(doc)).then(
        (edits) => (edits || []).map((e) => vscode.TextEdit.replace(toRange(e.range), e.newText))),
    }),
    vscode.languages.registerHoverProvider(selector, {
      provideHover: (doc, pos) => ask('textDocument/hover', posParams(doc, pos)).then((h) => (h
        ? new vscode.Hover(new vscode.MarkdownString(h.contents.value), h.range && toRange(h.range))
        : null)),
    }),
    vscode.languages.registerDefinitionProvider(selector, {
      provideDefinition: (doc, pos) => ask('textDocument/definition', posParams(doc, pos)).then(
        (locs) => (locs || []).map(toLocation)),
    }),
    vscode.languages.registerReferenceProvider(selector, {
      provideReferences: (doc, pos, ctx) => ask('textDocument/references', Object.assign(posParams(doc, pos), {
        context: { includeDeclaration: ctx.includeDeclaration },
      })).then((locs) => (locs || []).map(toLocation)),
    }),
    vscode.languages.registerCompletionItemProvider(selector, {
      provideCompletionItems: (doc, pos) => ask('textDocument/completion', posParams(doc, pos)).then(
        (list) => ((list && list.items) || []).map((it) => {
          const item = new vscode.CompletionItem(it.label, completionKind(it.kind));
          item.detail = it.detail;
          return item;
        })),
    }),
    vscode.languages.registerRenameProvider(selector, {
      provideRenameEdits: (doc, pos, newName) => ready.then(() => c.request('textDocument/rename',
        Object.assign(posParams(doc, pos), { newName }))).then(toWorkspaceEdit),
    }),
    vscode.languages.registerCodeActionsProvider(selector, {
      provideCodeActions: (doc, range, ctx) => ask('textDocument/codeAction', Object.assign(docParams(doc), {
        range: { start: fromPos(range.start), end: fromPos(range.end) },
        context: {
          diagnostics: ctx.diagnostics.filter((d) => d.source === 'vigil').map((d) => ({
            range: { start: fromPos(d.range.start), end: fromPos(d.range.end) },
            severity: d.severity === vscode.DiagnosticSeverity.Warning ? 2 : 1,
            code: d.code, source: d.source, message: d.message,
          })),
        },
      })).then((acts) => (acts || []).map((a) => {
        const action = new vscode.CodeAction(a.title, vscode.CodeActionKind.QuickFix);
        action.edit = toWorkspaceEdit(a.edit);
        action.isPreferred = a.isPreferred;
        return action;
      })),
    }),
    vscode.languages.registerDocumentSymbolProvider(selector, {
      provideDocumentSymbols: (doc) => ask('textDocument/documentSymbol', docParams(doc)).then(
        (syms) => (syms || []).map((s) => new vscode.DocumentSymbol(
          s.name, s.detail || '', symbolKind(s.kind), toRange(s.range), toRange(s.selectionRange)))),
    }),
  );
}

function deactivate() {
  if (!client) return undefined;
  const c = client;
  client = undefined;
  return c.request('shutdown', null)
    .then(() => c.notify('exit', null))
    .catch(() => {})
    .finally(() => setTimeout(() => c.proc.kill(), 500));
}

module.exports = { activate, deactivate };
