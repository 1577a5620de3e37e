import { z } from 'zod'

/** Unset and blank both mean "not set". */
export const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()))

/**
 * A number in [lo, hi] (an integer when `integer`), `dflt` when unset. A bad value is reported as
 * `KEY must be an integer in [lo, hi], got "v"`, with `why` in parentheses before `got` when given.
 */
export const numberIn = (key: string, lo: number, hi: number, dflt: number, integer: boolean, why?: string) =>
  optional.transform((v, ctx) => {
    if (v === undefined) return dflt
    const n = Number(v)
    const ok = v !== '' && Number.isFinite(n) && n >= lo && n <= hi && (!integer || Number.isInteger(n))
    if (!ok) {
      ctx.addIssue({
        code: 'custom',
        message: `${key} must be ${integer ? 'an integer' : 'a number'} in [${lo}, ${hi}]${why === undefined ? '' : ` (${why})`}, got "${v}"`,
      })
      return z.NEVER
    }
    return n
  })

/**
 * One of `values`, `dflt` when unset (undefined: stays unset). A bad value is reported as
 * `KEY must be one of a, b, c, got "v"`, or with `words` in place of `one of a, b, c`.
 */
export const oneOf = <T extends string, D extends T | undefined>(key: string, values: readonly T[], dflt: D, words?: string) =>
  optional.transform((v, ctx): T | D => {
    if (v === undefined) return dflt
    if ((values as readonly string[]).includes(v)) return v as T
    ctx.addIssue({ code: 'custom', message: `${key} must be ${words ?? `one of ${values.join(', ')}`}, got "${v}"` })
    return z.NEVER
  })

/** `true` or `false` (also 1/0, yes/no, any case), `false` when unset: `KEY must be true or false, got "v"`. */
export const flag = (key: string) =>
  optional.transform((v, ctx) => {
    if (v === undefined || /^(false|0|no)$/i.test(v)) return false
    if (/^(true|1|yes)$/i.test(v)) return true
    ctx.addIssue({ code: 'custom', message: `${key} must be true or false, got "${v}"` })
    return z.NEVER
  })
