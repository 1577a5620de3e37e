/**
 * Base of the keeper's typed errors (adapters, DEX client): a short message, optional details
 * appended for operators, and a stable `code` that is safe to match on.
 */
export class CodedError extends Error {
  override name = 'CodedError'
  readonly code: string
  readonly details: string | undefined
  constructor(code: string, message: string, details?: string) {
    super(details === undefined ? message : `${message}: ${details}`)
    this.code = code
    this.details = details
  }
}
