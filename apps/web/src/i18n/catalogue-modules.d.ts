// Parts of a catalogue cut by catalogue-parts-plugin.ts; their keys are typed through the whole file (i18n.ts).
declare module '*.json?part=core' {
  const messages: Record<string, unknown>;
  export default messages;
}
declare module '*.json?part=admin' {
  const messages: Record<string, unknown>;
  export default messages;
}
declare module '*.json?part=profile' {
  const messages: Record<string, unknown>;
  export default messages;
}
declare module '*.json?part=chat' {
  const messages: Record<string, unknown>;
  export default messages;
}
declare module '*.json?part=cultivation' {
  const messages: Record<string, unknown>;
  export default messages;
}
