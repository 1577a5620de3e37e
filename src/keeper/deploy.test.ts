import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../test/keeper/vaultWorld.js'

// These check, without a container engine, that the deployment files say what the runbook promises;
// scripts/container/images.e2e.test.ts builds and runs them where podman is installed.
const text = (p: string) => readFileSync(join(REPO_ROOT, p), 'utf8')
const instructions = (dockerfile: string) =>
  dockerfile
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))

describe('Dockerfile', () => {
  const lines = instructions(text('Dockerfile'))
  const stages = lines.filter((l) => l.startsWith('FROM '))
  const final = lines.slice(lines.indexOf(stages[stages.length - 1]!))

  it('has two stages and builds the single executable with the project script', () => {
    expect(stages).toHaveLength(2)
    expect(lines).toContain('RUN bash scripts/build-keeper.sh /out/keeper')
  })

  it('ships only the executable, as entrypoint, with CA certificates, port 8080, a health check and no volume', () => {
    expect(stages[1]).toMatch(/distroless\/cc-debian12/) // glibc, libstdc++ and CA certificates
    expect(final.filter((l) => l.startsWith('COPY'))).toEqual(['COPY --from=build /out/keeper /app/keeper'])
    expect(final.filter((l) => l.startsWith('EXPOSE'))).toEqual(['EXPOSE 8080'])
    expect(final.find((l) => l.startsWith('HEALTHCHECK'))).toContain('"/app/keeper", "healthcheck"')
    expect(final).toContain('ENTRYPOINT ["/app/keeper"]')
    expect(lines.some((l) => l.startsWith('VOLUME'))).toBe(false)
  })

  it('sets API_HOST=0.0.0.0 itself: the keeper binds 127.0.0.1 by default, which a container cannot publish', () => {
    expect(final.find((l) => l.startsWith('ENV '))).toMatch(/\bAPI_HOST=0\.0\.0\.0\b/)
  })
})

describe('Node version of the images', () => {
  const major = text('.node-version').trim().split('.')[0]

  it('both Dockerfiles build on node:<major of .node-version>-bookworm-slim with npm ci', () => {
    for (const file of ['Dockerfile', 'deploy/k8s/sim.Dockerfile']) {
      const lines = instructions(text(file))
      expect(lines[0], file).toMatch(new RegExp(`^FROM node:${major}-bookworm-slim( AS build)?$`))
      expect(lines.filter((l) => /\bnpm (ci|install)\b/.test(l)).map((l) => /\bnpm (ci|install)\b/.exec(l)![0]), file).toEqual(['npm ci'])
    }
  })
})

describe('deployment configs', () => {
  it('compose: the API published on loopback only', () => {
    expect(text('deploy/docker-compose.yml').match(/^\s+- "[\d.:]+"$/gm)?.map((l) => l.trim())).toEqual(['- "127.0.0.1:8080:8080"'])
    expect(text('deploy/docker-compose.yml')).toMatch(/^\s+API_HOST: "0\.0\.0\.0"$/m)
  })

  it('compose: restart unless-stopped, json-file logs 50m x 3, secret mapped to KEEPER_SECRET and readable by the image user', () => {
    const compose = text('deploy/docker-compose.yml')
    expect(compose).toMatch(/restart: unless-stopped/)
    expect(compose).toMatch(/driver: json-file[\s\S]*max-size: "50m"[\s\S]*max-file: "3"/)
    expect(compose).toMatch(/KEEPER_SECRET_FILE: \/run\/secrets\/keeper_secret/)
    expect(compose).toMatch(/chown 65532 [^\n]*&& sudo chmod 400/)
  })

  it('hosted platform: Dockerfile build, ./keeper, ON_FAILURE x5, /healthz with 30 s timeout', () => {
    const cfg = JSON.parse(text('deploy/railway.json'))
    expect(cfg.build).toMatchObject({ builder: 'DOCKERFILE', dockerfilePath: 'Dockerfile' })
    expect(cfg.deploy).toMatchObject({
      startCommand: './keeper',
      restartPolicyType: 'ON_FAILURE',
      restartPolicyMaxRetries: 5,
      healthcheckPath: '/healthz',
      healthcheckTimeout: 30,
    })
  })
})
