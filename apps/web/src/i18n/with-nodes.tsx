import { Fragment, type ReactNode } from 'react';

const PLACEHOLDER = /\{\{(\w+)\}\}/g;

/**
 * A message whose `{{placeholders}}` are React nodes (a bold realm name, a number in its own span): each language
 * keeps its own word order. Call `t(key)` without values, so the placeholders survive, then pass the message here.
 */
export function withNodes(message: string, nodes: Record<string, ReactNode>): ReactNode {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of message.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    parts.push(message.slice(last, match.index));
    parts.push(<Fragment key={`${name}-${match.index}`}>{nodes[name] ?? match[0]}</Fragment>);
    last = match.index + match[0].length;
  }
  parts.push(message.slice(last));
  return parts;
}
