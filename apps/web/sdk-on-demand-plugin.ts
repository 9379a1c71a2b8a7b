import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

/**
 * stream-chat-react's defaults import some rarely shown components statically, so they load with the chat screen
 * even though a user may never open them: the poll creation dialog, the share-location dialog, the voice recorder's
 * panel, and the virtualized message list (its Thread can render one; this app never asks it to), which alone brings
 * react-virtuoso. Each is replaced, at build time, by a stand-in with the same export that downloads the real module
 * the first time it renders, inside its own Suspense boundary so the rest of the chat stays on screen meanwhile
 * (docs/decisions/0008-web-code-splitting.md).
 */
const ON_DEMAND: Record<string, string> = {
  'components/MessageList/VirtualizedMessageList.mjs': 'VirtualizedMessageList',
  'components/Poll/PollCreationDialog/PollCreationDialog.mjs': 'PollCreationDialog',
  'components/Location/ShareLocationDialog.mjs': 'ShareLocationDialog',
  'components/MediaRecorder/AudioRecorder/AudioRecorder.mjs': 'AudioRecorder',
};

const REAL = '?daohuu-real';
const SDK_DIR = /[\\/]node_modules[\\/]stream-chat-react[\\/]dist[\\/]es[\\/](.+)$/;

function onDemandExport(path: string): string | undefined {
  const file = SDK_DIR.exec(path)?.[1]?.replace(/\\/g, '/');
  return file ? ON_DEMAND[file] : undefined;
}

function standIn(path: string, name: string): string {
  return [
    "import { Suspense, createElement, lazy } from 'react';",
    `const Real = lazy(() => import(${JSON.stringify(`${path}${REAL}`)}).then((m) => ({ default: m.${name} })));`,
    `export function ${name}(props) {`,
    '  return createElement(Suspense, { fallback: null }, createElement(Real, props));',
    '}',
  ].join('\n');
}

export function sdkPartsOnDemand(): Plugin {
  return {
    name: 'daohuu-sdk-parts-on-demand',
    apply: 'build',
    load(id) {
      const [path = id, query] = id.split('?', 2);
      const name = onDemandExport(path);
      if (!name) return null;
      // The real module, asked for by the stand-in: its own code, resolved from its own folder.
      if (query === REAL.slice(1)) return { code: readFileSync(path, 'utf8'), moduleType: 'js' };
      return { code: standIn(path, name), moduleType: 'js' };
    },
  };
}
