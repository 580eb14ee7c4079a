// Computer-use models' tool calls -> our commands, and finished commands -> what the models expect back.
export { ComputerUseError } from './errors.js';
export { DEFAULT_DISPLAY_LIMITS, modelDisplay, screenshotCommand, toModelPoint, toScreenPoint } from './display.js';
export type { DisplayLimits, ModelDisplay, ScreenOrDisplay, ScreenSize } from './display.js';
export { anthropicComputerTool, fromAnthropicComputerAction, toAnthropicToolResult } from './anthropic.js';
export type {
  AnthropicComputerActionName,
  AnthropicComputerInput,
  AnthropicComputerTool,
  AnthropicComputerToolVersion,
  AnthropicImageBlock,
  AnthropicTextBlock,
  AnthropicToolResult,
  AnthropicToolResultOptions,
} from './anthropic.js';
export {
  fromOpenAIComputerAction,
  fromOpenAIComputerCall,
  OPENAI_WAIT_MS,
  openAIComputerTool,
  toOpenAIComputerCallOutput,
} from './openai.js';
export type {
  OpenAIComputerAction,
  OpenAIComputerCall,
  OpenAIComputerCallOutput,
  OpenAIComputerCallOutputOptions,
  OpenAIComputerEnvironment,
  OpenAIComputerTool,
  OpenAIMouseButton,
  OpenAISafetyCheck,
} from './openai.js';
