import { randomUUID } from 'node:crypto'
import { and, eq, gt, inArray, isNull, lte, or } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import type { PortalsDeps } from './portals.deps.ts'
import { portalMagicLinks } from './portals.schema.ts'
import { hashPortalToken, newPortalToken } from './portals.session.ts'

// Magic links (decision 038): a 256-bit token mailed once, of which only the SHA-256 is kept,
// bound to one portal and one member, used at most once.

export const invitationLinkMs = 7 * 86_400_000
export const signInLinkMs = 30 * 60_000

type LinkMember = { id: string; portalId: string; organizationId: string }

/**
 * A fresh link for each member; the tokens come back in the members' order and are never stored.
 * `replaceOlder`: the members' unused links stop working. An invitation sent again does this,
 * so only the newest invitation in someone's mailbox opens the portal; a sign-in link asked for
 * on the portal leaves the others alone (they end within 30 minutes anyway, and the mail asked
 * for first may arrive last).
 */
export async function issueMagicLinks(
	deps: Pick<PortalsDeps, 'now'> & { db: Db },
	members: LinkMember[],
	options: { lifetimeMs: number; replaceOlder: boolean },
): Promise<string[]> {
	if (members.length === 0) {
		return []
	}
	const now = deps.now()
	const tokens = members.map(() => newPortalToken())
	await deps.db.transaction(async (tx) => {
		// The members' links that cannot work any more go now, so links never pile up.
		const ids = members.map((member) => member.id)
		await tx
			.delete(portalMagicLinks)
			.where(
				and(
					inArray(portalMagicLinks.memberId, ids),
					options.replaceOlder
						? or(isNull(portalMagicLinks.usedAt), lte(portalMagicLinks.expiresAt, now))
						: lte(portalMagicLinks.expiresAt, now),
				),
			)
		await tx.insert(portalMagicLinks).values(
			members.map((member, index) => ({
				id: randomUUID(),
				organizationId: member.organizationId,
				portalId: member.portalId,
				memberId: member.id,
				tokenHash: hashPortalToken(tokens[index] as string),
				expiresAt: new Date(now.getTime() + options.lifetimeMs),
			})),
		)
	})
	return tokens
}

/**
 * Spends a link of this portal: one statement both checks and marks it, so two requests racing
 * with the same token cannot both win. Null for a link that is unknown, used, expired, of another
 * portal, or whose member was removed (their links went with them).
 */
export async function consumeMagicLink(
	deps: Pick<PortalsDeps, 'db' | 'now'>,
	portalId: string,
	token: string,
): Promise<string | null> {
	const now = deps.now()
	const [spent] = await deps.db
		.update(portalMagicLinks)
		.set({ usedAt: now })
		.where(
			and(
				eq(portalMagicLinks.tokenHash, hashPortalToken(token)),
				eq(portalMagicLinks.portalId, portalId),
				isNull(portalMagicLinks.usedAt),
				gt(portalMagicLinks.expiresAt, now),
			),
		)
		.returning({ memberId: portalMagicLinks.memberId })
	return spent?.memberId ?? null
}
