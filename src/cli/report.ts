// Report formats: the text report (diffs, findings, summary line), JSON, and counts.

import type { Plan } from '../engine/run.js';
import type { Finding, Severity } from '../../transforms/types.js';

export interface Colors {
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  bold(s: string): string;
  dim(s: string): string;
}

export interface Summary {
  scanned: number;
  changed: number;
  changes: number;
  warnings: number;
  manual: number;
  errors: number;
}

export function summarize(p: Plan, findings: readonly Finding[]): Summary {
  const count = (s: Severity): number => findings.filter((f) => f.severity === s).length;
  return {
    scanned: p.tree.files.length,
    changed: p.files.filter((o) => o.status === 'changed').length,
    changes: count('change'),
    warnings: count('warning'),
    manual: count('manual'),
    errors: count('error'),
  };
}

const plural = (n: number, one: string, many = one + 's'): string => `${n} ${n === 1 ? one : many}`;

export function summaryLine(s: Summary, changedWord: string): string {
  return `${plural(s.scanned, 'file')} scanned, ${s.changed} ${changedWord}, ${plural(s.changes, 'change')}, ${plural(s.warnings, 'warning')}, ${s.manual} need${s.manual === 1 ? 's' : ''} manual review, ${plural(s.errors, 'error')}`;
}

export function findingLine(f: Finding, c: Colors): string {
  const where = f.line > 0 ? `${f.file}:${f.line}` : f.file;
  const sev = f.severity === 'error' ? c.red(f.severity) : f.severity === 'manual' ? c.yellow(f.severity) : f.severity === 'warning' ? c.yellow(f.severity) : c.green(f.severity);
  return `${c.bold(where)}: ${sev} ${c.dim(f.transform)}: ${f.message}`;
}

/** Error lines for stderr: `file:line: message`, one line each. */
export function errorLine(f: Finding): string {
  const where = f.line > 0 ? `${f.file}:${f.line}` : f.file;
  return `${where}: ${f.message.split('\n')[0]}`;
}

export function colorDiff(diff: string, c: Colors): string {
  return diff
    .split('\n')
    .map((l) => (l.startsWith('+++') || l.startsWith('---') || l.startsWith('diff --git') ? c.bold(l) : l.startsWith('@@') ? c.cyan(l) : l.startsWith('+') ? c.green(l) : l.startsWith('-') ? c.red(l) : l))
    .join('\n');
}

export function sortFindings(fs: Finding[]): Finding[] {
  return [...fs].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
}
