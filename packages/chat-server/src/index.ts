export { chatServerPlugin, type ChatServerPluginOptions } from './plugin.ts';
export { buildChatServer } from './server.ts';
export { shutDownOnSignals, trackRequests, type HttpDrain } from './http/drain.ts';
export {
  loadConfig,
  parseConfig,
  DEV_APP,
  type AppConfig,
  type ChatServerConfig,
  type ChatServerConfigInput,
  type DeepPartial,
} from './config.ts';
export { ChatError, ErrorCodes, type ApiErrorBody } from './errors.ts';
export {
  answerChatNotFound,
  answerClientError,
  answerFrameworkError,
} from './http/error-handler.ts';
export { signUserToken } from './auth/tokens.ts';
export type { ChatRuntime } from './runtime.ts';
