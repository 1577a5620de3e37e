/**
 * Credentials in RPC URLs, masked for logs and APIs. The rule, in one place:
 * - userinfo (`https://user:pass@host`): replaced whole, `https://***@host`;
 * - a query parameter whose name contains `key`, `token`, `secret`, `password`, `auth` or
 *   `sig` (apikey, api_key, key, token, access_token, X-Api-Key...): its value becomes `***`;
 * - a path segment of 20 characters or more, made of letters, digits, `-` and `_` only, with
 *   at least one letter and one digit (a provider's key in the path, `/v1/3f9c...e21a`): `***`.
 * Anything else (host, port, short or word-like path segments, other parameters) is kept.
 */

const MASK = '***'
const SECRET_PARAM = /key|token|secret|password|passwd|auth|sig/i
const KEY_SEGMENT = /^(?=.*[A-Za-z])(?=.*\d)[A-Za-z0-9_-]{20,}$/

function secretSegment(segment: string): boolean {
  let s = segment
  try {
    s = decodeURIComponent(segment)
  } catch {
    // keep it as written
  }
  return KEY_SEGMENT.test(s)
}

/** `url` with its credentials masked; a string that is not a URL is returned as it is. */
export function redactUrl(url: string): string {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return url
  }
  const userinfo = u.username !== '' || u.password !== ''
  const segments = u.pathname.split('/')
  const params = [...u.searchParams.entries()]
  if (!userinfo && !segments.some(secretSegment) && !params.some(([k]) => SECRET_PARAM.test(k))) return url
  u.username = ''
  u.password = ''
  const path = segments.map((seg) => (secretSegment(seg) ? MASK : seg)).join('/')
  const query = params.map(([k, v]) => [k, SECRET_PARAM.test(k) ? MASK : v] as const)
  let out = `${u.protocol}//${userinfo ? `${MASK}@` : ''}${u.host}${path}`
  if (query.length > 0) out += `?${query.map(([k, v]) => `${encodeURIComponent(k)}=${v === MASK ? MASK : encodeURIComponent(v)}`).join('&')}`
  return out + u.hash
}

/** The literal strings of `url` that `redactUrl` masks (to find them in text that quotes the URL). */
export function urlSecrets(url: string): string[] {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return []
  }
  const out = new Set<string>()
  const add = (s: string) => {
    if (s.length < 4) return
    out.add(s)
    try {
      out.add(decodeURIComponent(s))
    } catch {
      // only the raw form
    }
  }
  add(u.username)
  add(u.password)
  for (const seg of u.pathname.split('/')) if (secretSegment(seg)) add(seg)
  for (const [k, v] of u.searchParams.entries()) {
    if (!SECRET_PARAM.test(k)) continue
    add(v)
    add(encodeURIComponent(v))
  }
  return [...out].sort((a, b) => b.length - a.length)
}

/**
 * Every http(s) URL in `text` passed through `redactUrl`, the userinfo of any other `scheme://`
 * masked too (a malformed URL still hides its password), and every string of `secrets` masked.
 */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text
    .replace(/https?:\/\/[^\s"'<>\\]+/g, (m) => redactUrl(m))
    .replace(/([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^\s/@"'<>\\]+@/g, `$1${MASK}@`)
  for (const s of secrets) if (s !== '' && out.includes(s)) out = out.split(s).join(MASK)
  return out
}
