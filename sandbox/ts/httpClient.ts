/**
 * The HTTP client the sandbox's rpc.Server posts with: node:http over kept-alive connections.
 *
 * The SDK's default client (feaxios over fetch) costs about 0.45 ms of CPU per request on the
 * 2-core build machine, this one about 0.2 ms (sandbox/README.md, Transport, "Client"). Against a local
 * node that answers in well under a millisecond, that difference is most of a request: the
 * simulator's keepers make dozens per ledger. It implements what rpc.Server uses of its
 * `httpClient` (`post(url, body?)` answering `{ data, status, statusText, headers }`) and, like
 * the default client, rejects a status >= 400 with an error carrying `response`.
 */
import http from 'node:http'

export interface SandboxHttpResponse {
  data: unknown
  status: number
  statusText: string
  headers: http.IncomingHttpHeaders
}

export class SandboxHttpError extends Error {
  override name = 'SandboxHttpError'
  constructor(
    message: string,
    readonly response: SandboxHttpResponse,
  ) {
    super(message)
  }
}

export interface SandboxHttpClient {
  post(url: string, body?: unknown): Promise<SandboxHttpResponse>
  /** Closes the kept-alive connections. */
  close(): void
}

function parse(text: string, type: string | undefined): unknown {
  if (text === '') return ''
  if (type?.includes('json') === true || /^[[{]/.test(text)) {
    try {
      return JSON.parse(text) as unknown
    } catch {
      return text
    }
  }
  return text
}

export function sandboxHttpClient(): SandboxHttpClient {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 })
  return {
    post(url, body) {
      const u = new URL(url)
      if (u.protocol !== 'http:') return Promise.reject(new Error(`the sandbox client speaks http only, not ${u.protocol} (${url})`))
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body))
      return new Promise((resolve, reject) => {
        const req = http.request(
          {
            host: u.hostname,
            port: u.port,
            path: `${u.pathname}${u.search}`,
            method: 'POST',
            agent,
            headers: payload === undefined ? { 'content-length': 0 } : { 'content-type': 'application/json', 'content-length': payload.length },
          },
          (res) => {
            const chunks: Buffer[] = []
            res.on('data', (c: Buffer) => chunks.push(c))
            res.on('error', reject)
            res.on('end', () => {
              const status = res.statusCode ?? 0
              const response = {
                data: parse(Buffer.concat(chunks).toString('utf8'), res.headers['content-type']),
                status,
                statusText: res.statusMessage ?? '',
                headers: res.headers,
              }
              if (status >= 400) reject(new SandboxHttpError(`Request failed with status ${status}`, response))
              else resolve(response)
            })
          },
        )
        req.on('error', reject)
        req.end(payload)
      })
    },
    close: () => agent.destroy(),
  }
}
