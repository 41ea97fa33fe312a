/** The import rules of the house (design/architecture.md §3): dependencies point one way. */
module.exports = {
	forbidden: [
		{ name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
		{ name: 'no-unresolvable', severity: 'error', from: {}, to: { couldNotResolve: true } },
		{
			name: 'lib-is-below-everything',
			comment: 'lib holds framework helpers with no business rules; it imports nothing above it.',
			severity: 'error',
			from: { path: '^apps/server/src/lib/', pathNot: '\\.test\\.ts$' },
			to: { path: '^apps/server/src/(core|workspaces|features|public|app\\.ts|main\\.ts)' },
		},
		{
			name: 'core-is-below-modules',
			comment: 'core (auth, teams, subscriptions, uploads) is the platform modules use, never the reverse.',
			severity: 'error',
			from: { path: '^apps/server/src/core/', pathNot: '\\.test\\.ts$' },
			to: { path: '^apps/server/src/(workspaces|features|public|app\\.ts|main\\.ts)' },
		},
		{
			name: 'workspaces-are-below-features',
			severity: 'error',
			from: { path: '^apps/server/src/workspaces/', pathNot: '\\.test\\.ts$' },
			to: { path: '^apps/server/src/(features|public|app\\.ts|main\\.ts)' },
		},
		{
			name: 'features-do-not-import-each-other',
			comment: 'Where two features must talk, one exposes <name>.public.ts.',
			severity: 'error',
			from: { path: '^apps/(server|web)/src/features/([^/]+)/' },
			to: { path: '^apps/$1/src/features/', pathNot: ['^apps/$1/src/features/$2/', '\\.public\\.tsx?$'] },
		},
		{
			name: 'web-lib-and-ui-are-below-features',
			severity: 'error',
			from: { path: '^apps/web/src/(lib|components)/' },
			to: { path: '^apps/web/src/(core|workspaces|features|app)/' },
		},
		{
			name: 'web-never-imports-server',
			severity: 'error',
			from: { path: '^apps/web/' },
			to: { path: '^apps/server/' },
		},
		{
			name: 'server-never-imports-web',
			severity: 'error',
			from: { path: '^apps/server/' },
			to: { path: '^apps/web/' },
		},
		{
			name: 'contracts-import-only-zod',
			comment: 'Plus big.js, for exact invoice money on both sides (docs/decisions/031-invoice-money.md).',
			severity: 'error',
			from: { path: '^packages/contracts/', pathNot: '\\.test\\.ts$' },
			to: {
				dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'core'],
				pathNot: ['^node_modules/zod/', '^node_modules/big\\.js/'],
			},
		},
		{
			name: 'tests-stay-out-of-production-code',
			severity: 'error',
			from: { path: '^apps/server/src/', pathNot: ['\\.test\\.ts$', '^apps/server/src/test/'] },
			to: { path: ['\\.test\\.ts$', '^apps/server/src/test/'] },
		},
	],
	options: {
		doNotFollow: { path: 'node_modules' },
		exclude: { path: ['(^|/)dist/', '(^|/)data/', '^bench/results/'] },
		tsPreCompilationDeps: true,
		combinedDependencies: true,
		enhancedResolveOptions: {
			exportsFields: ['exports'],
			conditionNames: ['import', 'require', 'node', 'default', 'types'],
			extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
		},
		tsConfig: { fileName: 'tsconfig.base.json' },
	},
}
