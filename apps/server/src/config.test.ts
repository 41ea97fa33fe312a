import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { ConfigError, loadConfig } from './config.ts'

const dirs: string[] = []
function tempDir(): string {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'bs-config-'))
	dirs.push(dir)
	return dir
}
afterEach(() => {
	for (const dir of dirs.splice(0)) {
		rmSync(dir, { recursive: true, force: true })
	}
})

describe('configuration', () => {
	test('defaults need no setup: port 3000, ./data, a public URL on localhost', () => {
		const dataDir = tempDir()
		const config = loadConfig({ DATA_DIR: dataDir })
		expect(config.port).toBe(3000)
		expect(config.publicUrl).toBe('http://localhost:3000')
		expect(config.databaseUrl).toBeUndefined()
		expect(config.dataDir).toBe(dataDir)
	})

	test('a missing AUTH_SECRET is generated once and kept in the data folder', () => {
		const dataDir = tempDir()
		const first = loadConfig({ DATA_DIR: dataDir })
		const second = loadConfig({ DATA_DIR: dataDir })
		expect(first.authSecret.length).toBeGreaterThanOrEqual(32)
		expect(second.authSecret).toBe(first.authSecret)
		const file = path.join(dataDir, 'secrets.json')
		expect(JSON.parse(readFileSync(file, 'utf8')).authSecret).toBe(first.authSecret)
		expect(statSync(file).mode & 0o777).toBe(0o600)
	})

	test('a given AUTH_SECRET wins and nothing is written', () => {
		const dataDir = tempDir()
		const config = loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: 's'.repeat(40) })
		expect(config.authSecret).toBe('s'.repeat(40))
		expect(() => statSync(path.join(dataDir, 'secrets.json'))).toThrow()
	})

	test.each([
		[{ PORT: 'abc' }, /^Invalid configuration: PORT /],
		[{ PORT: '70000' }, /^Invalid configuration: PORT /],
		[{ DATABASE_URL: 'mysql://x@y/z' }, /^Invalid configuration: DATABASE_URL must be a postgres/],
		[{ PUBLIC_URL: 'not a url' }, /^Invalid configuration: PUBLIC_URL /],
		[{ AUTH_SECRET: 'short' }, /^Invalid configuration: AUTH_SECRET must be at least 32 characters/],
		[{ SMTP_URL: 'http://mail' }, /^Invalid configuration: SMTP_URL must be an smtp/],
		[{ TRUST_PROXY: 'maybe' }, /^Invalid configuration: TRUST_PROXY /],
	])('a wrong value stops start-up with one clear line: %o', (env, message) => {
		const attempt = () => loadConfig({ DATA_DIR: tempDir(), ...env })
		expect(attempt).toThrow(ConfigError)
		expect(attempt).toThrow(message)
		try {
			attempt()
		} catch (error) {
			expect((error as Error).message).not.toContain('\n')
		}
	})

	test('a trailing slash on PUBLIC_URL is dropped', () => {
		expect(loadConfig({ DATA_DIR: tempDir(), PUBLIC_URL: 'https://app.example.com/' }).publicUrl).toBe(
			'https://app.example.com',
		)
	})

	test('files stay in DATA_DIR/uploads unless S3_BUCKET is set', () => {
		expect(loadConfig({ DATA_DIR: tempDir() }).s3).toBeNull()
	})

	test('S3 settings: a bucket on AWS, or on an S3-compatible store served by path', () => {
		expect(loadConfig({ DATA_DIR: tempDir(), S3_BUCKET: 'files', S3_REGION: 'eu-west-3' }).s3).toEqual({
			bucket: 'files',
			region: 'eu-west-3',
			endpoint: null,
			forcePathStyle: false,
			credentials: null,
		})
		const compatible = loadConfig({
			DATA_DIR: tempDir(),
			S3_BUCKET: 'files',
			S3_ENDPOINT: 'http://minio.internal:9000/',
			S3_ACCESS_KEY_ID: 'key',
			S3_SECRET_ACCESS_KEY: 'secret',
		}).s3
		expect(compatible).toEqual({
			bucket: 'files',
			region: 'us-east-1',
			endpoint: 'http://minio.internal:9000',
			forcePathStyle: true,
			credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
		})
		const virtualHosted = loadConfig({
			DATA_DIR: tempDir(),
			S3_BUCKET: 'files',
			S3_ENDPOINT: 'https://r2.example.com',
			S3_FORCE_PATH_STYLE: 'false',
		})
		expect(virtualHosted.s3?.forcePathStyle).toBe(false)
	})

	test.each([
		[{ S3_ENDPOINT: 'http://minio:9000' }, /^Invalid configuration: S3_ENDPOINT set without S3_BUCKET/],
		[
			{ S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' },
			/S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY set without S3_BUCKET/,
		],
		[{ S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'k' }, /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/],
		[{ S3_BUCKET: 'Files_2' }, /^Invalid configuration: S3_BUCKET must be a bucket name/],
		[{ S3_BUCKET: 'files', S3_ENDPOINT: 'minio:9000' }, /^Invalid configuration: S3_ENDPOINT must be an http/],
		[{ S3_BUCKET: 'files', S3_FORCE_PATH_STYLE: 'sometimes' }, /^Invalid configuration: S3_FORCE_PATH_STYLE /],
	])('partial or wrong S3 settings stop start-up with one clear line: %o', (env, message) => {
		const attempt = () => loadConfig({ DATA_DIR: tempDir(), ...env })
		expect(attempt).toThrow(ConfigError)
		expect(attempt).toThrow(message)
	})

	test('ROLE: all by default; web or worker alone only on PostgreSQL', () => {
		expect(loadConfig({ DATA_DIR: tempDir() }).role).toBe('all')
		const databaseUrl = 'postgres://app@db.internal:5432/blocksmith'
		expect(loadConfig({ DATA_DIR: tempDir(), ROLE: 'web', DATABASE_URL: databaseUrl }).role).toBe('web')
		expect(loadConfig({ DATA_DIR: tempDir(), ROLE: 'worker', DATABASE_URL: databaseUrl }).role).toBe('worker')
		expect(loadConfig({ DATA_DIR: tempDir(), ROLE: 'all', DATABASE_URL: databaseUrl }).role).toBe('all')
	})

	test.each([
		[{ ROLE: 'api' }, /^Invalid configuration: ROLE must be web, worker or all \(got "api"\)$/],
		[{ ROLE: 'web' }, /^Invalid configuration: ROLE=web needs DATABASE_URL/],
		[{ ROLE: 'worker' }, /^Invalid configuration: ROLE=worker needs DATABASE_URL/],
	])('a role the embedded database cannot run stops start-up with one clear line: %o', (env, message) => {
		const attempt = () => loadConfig({ DATA_DIR: tempDir(), ...env })
		expect(attempt).toThrow(ConfigError)
		expect(attempt).toThrow(message)
	})
})
