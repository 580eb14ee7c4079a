/**
 * A model's tool call (or a finished command) that cannot be turned into what the other side expects.
 * `field` names the part that is wrong, as the model wrote it (`coordinate`, `text`, `keys[1]`, ...).
 */
export class ComputerUseError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(`${field}: ${message}`);
    this.name = 'ComputerUseError';
    this.field = field;
  }
}
