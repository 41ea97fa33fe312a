// Adds to package-lock.json the platform-specific optional packages (other operating systems'
// and CPUs' native binaries) that the registry this project is installed from does not serve.
// npm leaves them out of the lock when it cannot fetch their metadata, and `npm ci` then
// refuses the lock as out of sync. Each entry records only what npm needs to skip the package
// on a machine it does not fit (version, os, cpu, libc); it is never downloaded.
//
// Usage, after changing dependencies: node scripts/lock-platform-packages.ts
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const lockFile = path.join(root, 'package-lock.json')

type LockEntry = { version?: string; optionalDependencies?: Record<string, string>; dev?: boolean }
type Lock = { packages: Record<string, LockEntry> }

function missingPackages(): string[] {
	try {
		execFileSync('npm', ['ci', '--dry-run', '--ignore-scripts'], { cwd: root, stdio: 'pipe', encoding: 'utf8' })
		return []
	} catch (error) {
		const output = String((error as { stderr?: string }).stderr ?? '')
		return [...output.matchAll(/Missing: (\S+?)@\S* from lock file/g)].map((match) => match[1] ?? '')
	}
}

/** `@oxc-parser/binding-linux-arm-musleabihf` → os linux, cpu arm, libc musl. */
function platformOf(name: string): { os: string; cpu: string; libc?: string } {
	const suffix =
		name
			.split('/')
			.pop()
			?.replace(/^(cli|binding)-/, '') ?? ''
	const [os = '', cpu = '', ...rest] = suffix.split('-')
	const flavour = rest.join('-')
	const libc = flavour.includes('musl') ? 'musl' : flavour.includes('gnu') ? 'glibc' : undefined
	return { os, cpu, ...(libc ? { libc } : {}) }
}

const missing = missingPackages()
const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as Lock
let added = 0
for (const name of missing) {
	const parent = Object.values(lock.packages).find((entry) => entry.optionalDependencies?.[name])
	const version = parent?.optionalDependencies?.[name]
	if (!version) {
		console.error(`${name}: no package in the lock lists it as optional; left alone`)
		continue
	}
	const { os, cpu, libc } = platformOf(name)
	lock.packages[`node_modules/${name}`] = {
		version,
		cpu: [cpu],
		...(parent?.dev ? { dev: true } : {}),
		...(libc ? { libc: [libc] } : {}),
		optional: true,
		os: [os],
	} as LockEntry
	added += 1
}
lock.packages = Object.fromEntries(
	Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
)
writeFileSync(lockFile, `${JSON.stringify(lock, null, '\t')}\n`)
console.log(
	`package-lock.json: ${added} platform package(s) recorded${missing.length === added ? '' : `, ${missing.length - added} left`}`,
)
