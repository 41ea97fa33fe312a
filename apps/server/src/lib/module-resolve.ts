import { readFileSync, realpathSync, statSync } from 'node:fs'
import { type ResolveHookContext, registerHooks } from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/*
 * Node's ES module resolver looks up the nearest package.json for every `.js` file it resolves,
 * to learn the file's format, and on each lookup it copies the whole package.json record, which
 * parses the package's `exports` map again (nodejs/node#58126). drizzle-orm's map is 130 KB and
 * the server loads about 450 of its files: that alone was over a second of every start.
 *
 * This fast path answers the one common case itself, with the answer Node would give: a relative
 * `./x.js` import between files under node_modules whose nearest package.json says
 * `"type": "module"`. Anything else, or anything unusual about that case, goes to Node's own
 * resolver unchanged. See docs/decisions/017-start-up.md.
 */

/** Whether the nearest package.json above a directory says `"type": "module"`, per directory. */
const moduleScopes = new Map<string, boolean | undefined>()

/**
 * The nearest package.json's verdict, found as Node finds it: walking up from `dir`, never past a
 * `node_modules` folder. `undefined` when a package.json cannot be read or parsed: Node itself
 * must then report it.
 */
function isModuleScope(dir: string): boolean | undefined {
	if (moduleScopes.has(dir)) {
		return moduleScopes.get(dir)
	}
	let verdict: boolean | undefined
	if (path.basename(dir) === 'node_modules') {
		verdict = false
	} else {
		let text: string | undefined
		try {
			text = readFileSync(path.join(dir, 'package.json'), 'utf8')
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
				moduleScopes.set(dir, undefined)
				return undefined
			}
		}
		if (text === undefined) {
			const parent = path.dirname(dir)
			verdict = parent === dir ? false : isModuleScope(parent)
		} else {
			try {
				verdict = (JSON.parse(text) as { type?: unknown }).type === 'module'
			} catch {
				verdict = undefined
			}
		}
	}
	moduleScopes.set(dir, verdict)
	return verdict
}

/**
 * The resolution of a relative `.js` import between ES modules under node_modules, or undefined
 * when Node's resolver should answer (other specifiers, other formats, missing files, anything
 * that Node would report as an error).
 */
export function resolveRelativeModule(
	specifier: string,
	context: ResolveHookContext,
): { url: string; format: 'module' } | undefined {
	const { parentURL } = context
	if (
		!parentURL?.startsWith('file:///') ||
		!parentURL.includes('/node_modules/') ||
		!(specifier.startsWith('./') || specifier.startsWith('../')) ||
		!specifier.endsWith('.js') ||
		// Escapes, queries, fragments and backslashes have rules of their own in Node's resolver.
		/[%?#\\]/.test(specifier) ||
		!context.conditions.includes('import') ||
		Object.keys(context.importAttributes).length > 0
	) {
		return undefined
	}
	try {
		const file = fileURLToPath(new URL(specifier, parentURL))
		if (!file.includes(`${path.sep}node_modules${path.sep}`) || statSync(file).isFile() !== true) {
			return undefined
		}
		// As Node does (without --preserve-symlinks): the module is known by its real path.
		const realFile = realpathSync.native(file)
		if (isModuleScope(path.dirname(realFile)) !== true) {
			return undefined
		}
		return { url: pathToFileURL(realFile).href, format: 'module' }
	} catch {
		// Missing, unreadable: Node's resolver reports it in its own words.
		return undefined
	}
}

/**
 * Puts the fast path in front of Node's resolver for this process: modules loaded after this
 * call use it. Not with `--preserve-symlinks`, whose results it does not reproduce.
 */
export function registerFastModuleResolve(): void {
	// biome-ignore lint/style/noProcessEnv: Node's own flags, which may come through NODE_OPTIONS; not the app's configuration.
	const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)]
	if (flags.some((flag) => flag.startsWith('--preserve-symlinks'))) {
		return
	}
	registerHooks({
		resolve: (specifier, context, nextResolve) => {
			const resolved = resolveRelativeModule(specifier, context)
			return resolved ? { ...resolved, shortCircuit: true } : nextResolve(specifier, context)
		},
	})
}
