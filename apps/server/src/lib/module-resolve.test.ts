import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'
import { resolveRelativeModule } from '#src/lib/module-resolve.ts'

const serverDir = path.resolve(import.meta.dirname, '../..')
const moduleUrl = pathToFileURL(path.join(import.meta.dirname, 'module-resolve.ts')).href

describe('the fast path gives the answers of Node’s own resolver', () => {
	test('for every import it takes on while the server’s heavy dependencies load', () => {
		// In a process of its own, every resolution is asked of both; only Node's answer is used.
		const script = `
			import { registerHooks } from 'node:module'
			import { resolveRelativeModule } from ${JSON.stringify(moduleUrl)}
			let compared = 0
			const mismatches = []
			registerHooks({
				resolve(specifier, context, nextResolve) {
					const fast = resolveRelativeModule(specifier, context)
					const node = nextResolve(specifier, context)
					if (fast) {
						compared++
						if (fast.url !== node.url || fast.format !== node.format) {
							mismatches.push({ specifier, parent: context.parentURL, fast, node })
						}
					}
					return node
				},
			})
			for (const name of ['drizzle-orm/pg-core', 'drizzle-orm/pglite', 'drizzle-orm/node-postgres', 'kysely', 'hono', 'css-tree', 'zod', 'pg-boss']) {
				await import(name)
			}
			console.log(JSON.stringify({ compared, mismatches: mismatches.slice(0, 5) }))
		`
		const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
			cwd: serverDir,
			encoding: 'utf8',
		})
		expect(run.stderr).toBe('')
		const result = JSON.parse(run.stdout) as { compared: number; mismatches: unknown[] }
		expect(result.mismatches).toEqual([])
		// drizzle-orm alone brings several hundred such imports; a fast path that gives up on them all would pass vacuously.
		expect(result.compared).toBeGreaterThan(1000)
	}, 120_000)
})

describe('the fast path leaves everything else to Node', () => {
	const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'bs-resolve-')))
	const modules = path.join(root, 'node_modules')
	afterAll(() => rmSync(root, { recursive: true, force: true }))

	function write(relativePath: string, text: string) {
		const file = path.join(modules, relativePath)
		mkdirSync(path.dirname(file), { recursive: true })
		writeFileSync(file, text)
	}
	write('esm/package.json', JSON.stringify({ name: 'esm', type: 'module', exports: { '.': './a.js' } }))
	write('esm/a.js', "import './b.js'")
	write('esm/b.js', 'export {}')
	write('esm/dir/index.js', 'export {}')
	write('esm/legacy/package.json', JSON.stringify({ name: 'legacy' }))
	write('esm/legacy/c.js', 'module.exports = {}')
	write('esm/broken/package.json', '{ not json')
	write('esm/broken/d.js', 'export {}')
	write('cjs/package.json', JSON.stringify({ name: 'cjs', type: 'commonjs' }))
	write('cjs/a.js', "require('./b.js')")
	write('cjs/b.js', 'module.exports = {}')
	write('untyped/a.js', 'export {}')
	write('untyped/b.js', 'export {}')
	mkdirSync(path.join(modules, 'esm/linked'))
	symlinkSync(path.join(modules, 'esm/b.js'), path.join(modules, 'esm/linked/e.js'))

	const importing = (parent: string) => ({
		parentURL: pathToFileURL(path.join(modules, parent)).href,
		conditions: ['node', 'import'],
		importAttributes: {},
	})

	test('answers a relative .js import inside a "type": "module" package', () => {
		expect(resolveRelativeModule('./b.js', importing('esm/a.js'))).toEqual({
			url: pathToFileURL(path.join(modules, 'esm/b.js')).href,
			format: 'module',
		})
	})

	test('names a symlinked module by its real path, as Node does', () => {
		expect(resolveRelativeModule('./linked/e.js', importing('esm/a.js'))?.url).toBe(
			pathToFileURL(path.join(modules, 'esm/b.js')).href,
		)
	})

	test('leaves other formats, scopes and errors to Node', () => {
		// A nested package.json without a type: Node detects the format from the source.
		expect(resolveRelativeModule('./legacy/c.js', importing('esm/a.js'))).toBeUndefined()
		// A package.json Node would refuse, with its own message.
		expect(resolveRelativeModule('./broken/d.js', importing('esm/a.js'))).toBeUndefined()
		expect(resolveRelativeModule('./b.js', importing('cjs/a.js'))).toBeUndefined()
		// No package.json up to node_modules: the search stops there, as Node's does.
		expect(resolveRelativeModule('./b.js', importing('untyped/a.js'))).toBeUndefined()
		expect(resolveRelativeModule('./missing.js', importing('esm/a.js'))).toBeUndefined()
		expect(resolveRelativeModule('./dir', importing('esm/a.js'))).toBeUndefined()
		expect(resolveRelativeModule('./dir/', importing('esm/a.js'))).toBeUndefined()
	})

	test('leaves bare, encoded and non-import resolutions to Node', () => {
		expect(resolveRelativeModule('esm', importing('esm/a.js'))).toBeUndefined()
		expect(resolveRelativeModule('./b%2Ejs', importing('esm/a.js'))).toBeUndefined()
		expect(resolveRelativeModule('./b.js?x=1', importing('esm/a.js'))).toBeUndefined()
		expect(
			resolveRelativeModule('./b.js', { ...importing('esm/a.js'), conditions: ['node', 'require'] }),
		).toBeUndefined()
		expect(
			resolveRelativeModule('./b.js', { ...importing('esm/a.js'), importAttributes: { type: 'json' } }),
		).toBeUndefined()
		// Our own source files are not under node_modules.
		expect(
			resolveRelativeModule('./b.js', {
				...importing('esm/a.js'),
				parentURL: pathToFileURL(path.join(root, 'a.js')).href,
			}),
		).toBeUndefined()
	})
})
