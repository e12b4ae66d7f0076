// A problem with the run input a user gave (--input): exit 2 with a message that says where.
export class InputError extends Error {
  override readonly name = 'InputError';
}
