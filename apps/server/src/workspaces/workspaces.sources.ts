import { and, eq, inArray } from 'drizzle-orm'
import { members, users } from '#src/core/auth/auth.schema.ts'
import type { Db } from '#src/db/client.ts'

// A write's source says who asked for it (`form:<id>`, `user:<id>`): an id, for machines. The
// deliveries list names it for people. Workspaces know no modules, so each module that writes
// registers how to name its own kind (`registerSourceLabels`); users are named here.

/** The names of the given ids of one kind, in the caller's organization; unknown ids are left out. */
export type SourceLabeler = (db: Db, orgId: string, ids: string[]) => Promise<Map<string, string>>

/** Source → its name, for the sources some labeler knows. */
export async function labelSources(
	ctx: { db: Db; orgId: string; sourceLabelers: Map<string, SourceLabeler> },
	sources: string[],
): Promise<Map<string, string>> {
	const idsByKind = new Map<string, Set<string>>()
	for (const source of sources) {
		const colon = source.indexOf(':')
		if (colon > 0) {
			const kind = source.slice(0, colon)
			const ids = idsByKind.get(kind) ?? new Set()
			ids.add(source.slice(colon + 1))
			idsByKind.set(kind, ids)
		}
	}
	const labels = new Map<string, string>()
	await Promise.all(
		[...idsByKind].map(async ([kind, ids]) => {
			const labeler = ctx.sourceLabelers.get(kind)
			if (!labeler) {
				return
			}
			for (const [id, label] of await labeler(ctx.db, ctx.orgId, [...ids])) {
				labels.set(`${kind}:${id}`, label)
			}
		}),
	)
	return labels
}

/** `user:<id>`: the member's name (a table edit); someone no longer in the organization is not named. */
export const labelUsers: SourceLabeler = async (db, orgId, ids) => {
	const rows = await db
		.select({ id: users.id, name: users.name })
		.from(users)
		.innerJoin(members, and(eq(members.userId, users.id), eq(members.organizationId, orgId)))
		.where(inArray(users.id, ids))
	return new Map(rows.map((row) => [row.id, row.name]))
}
