import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '..');

/** The folders whose every user-visible text must come from the catalogues (src/i18n/locales). */
const CONVERTED = [
  'features/auth',
  'features/cultivation',
  'features/profile',
  'features/admin',
  'components',
  'app/routes',
  'app/layout',
  'features/chat',
];

/**
 * Files (or folders, ending in "/") in those folders that hold no text of ours to convert, each with the reason.
 * The chat's Vietnamese translations of the SDK's own texts are applied only while Vietnamese is on screen; English
 * shows the SDK's own English, so they are not catalogue texts.
 */
const SKIPPED: Record<string, string> = {
  'components/ui/tooltip.tsx': 'another part of the app owns it',
  'features/chat/i18n/': "stream-chat-react's Vietnamese translation and dayjs locale (Streami18n)",
  'features/chat/emoji/emoji-picker-texts.ts':
    "emoji-mart's interface in Vietnamese, given only in Vietnamese",
  'features/chat/messages/reaction-options.ts':
    "Vietnamese names of the SDK's reactions, given only in Vietnamese",
};

function isSkipped(file: string): boolean {
  return Object.keys(SKIPPED).some((skipped) =>
    skipped.endsWith('/') ? file.startsWith(skipped) : file === skipped,
  );
}

/** Attributes a person sees or hears. */
const VISIBLE_ATTRIBUTES = new Set([
  'aria-label',
  'aria-description',
  'title',
  'placeholder',
  'alt',
  'label',
  'data-label',
  'tooltip',
]);

/** Texts that are not words of a language: symbols and separators. */
const ALLOWED = new Set(['—', '–', '%', '·', '…', '/', ':', '?', '≤']);

const LETTER = /\p{L}/u;

/** A letter outside ASCII: every Vietnamese sentence has one, no identifier or class name does. */
const NON_ASCII_LETTER = /(?=\P{ASCII})\p{L}/u;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(full) && !/\.test\.tsx?$/.test(full) ? [full] : [];
  });
}

function isWords(text: string): boolean {
  const trimmed = text.trim();
  return trimmed !== '' && !ALLOWED.has(trimmed) && LETTER.test(trimmed);
}

/** A string literal or a template whose fixed parts hold words. */
function literalWords(node: ts.Node | undefined): string | null {
  if (!node) return null;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
    return isWords(node.text) ? node.text : null;
  }
  if (ts.isTemplateExpression(node)) {
    const parts = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
    return parts.some(isWords) ? node.getText() : null;
  }
  if (ts.isJsxExpression(node)) return literalWords(node.expression);
  if (ts.isConditionalExpression(node)) {
    return literalWords(node.whenTrue) ?? literalWords(node.whenFalse);
  }
  if (ts.isParenthesizedExpression(node)) return literalWords(node.expression);
  return null;
}

function isVietnameseLiteral(node: ts.Node): node is ts.StringLiteral | ts.TemplateLiteral {
  return (
    (ts.isStringLiteral(node) || ts.isTemplateLiteral(node)) &&
    NON_ASCII_LETTER.test(node.getText())
  );
}

/**
 * Every literal a component would show as is: JSX text, words in visible attributes, and any string with
 * Vietnamese letters (a label in a constant, a toast, a validation message) wherever it is.
 */
export function findLiterals(fileName: string, source: string): string[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, kind);
  const found: string[] = [];
  const report = (node: ts.Node, text: string) => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart());
    found.push(`${fileName}:${line + 1} ${text.trim()}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && isWords(node.text)) report(node, node.text);
    else if (ts.isJsxExpression(node) && ts.isJsxElement(node.parent)) {
      const words = literalWords(node.expression);
      if (words) return report(node, words);
    } else if (ts.isJsxAttribute(node) && VISIBLE_ATTRIBUTES.has(node.name.getText())) {
      const words = literalWords(node.initializer);
      if (words) return report(node, words);
    } else if (isVietnameseLiteral(node)) return report(node, node.getText());
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('components of the converted screens', () => {
  it('render no literal user-visible text: every word comes from the catalogues', () => {
    const literals = CONVERTED.flatMap((folder) => sourceFiles(path.join(SRC, folder)))
      .map((file) => path.relative(SRC, file).split(path.sep).join('/'))
      .filter((file) => !isSkipped(file))
      .flatMap((file) => findLiterals(file, readFileSync(path.join(SRC, file), 'utf8')));
    expect(literals).toEqual([]);
  });

  it('flags JSX text, visible attributes, texts in JSX expressions and Vietnamese strings, and lets symbols and code through', () => {
    const source = `
      export function Demo({ on }: { on: boolean }) {
        return (
          <div className="grid gap-2" data-slot="demo">
            Xin chào
            <input aria-label="Tìm kiếm" placeholder={\`Tên \${on}\`} type="search" />
            <span title={on ? 'Bật' : 'Tắt'}>—</span>
            <p>{'Lưu'}</p>
            <p>{t('common.save')} %</p>
          </div>
        );
      }
      const LABELS = { light: 'Sáng', dark: 'Dark' };`;
    expect(findLiterals('demo.tsx', source)).toEqual([
      'demo.tsx:5 Xin chào',
      'demo.tsx:6 Tìm kiếm',
      'demo.tsx:6 `Tên ${on}`',
      'demo.tsx:7 Bật',
      'demo.tsx:8 Lưu',
      "demo.tsx:13 'Sáng'",
    ]);
  });
});
