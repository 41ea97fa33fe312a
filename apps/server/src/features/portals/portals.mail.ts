import type { MailMessage } from '#src/lib/mail.ts'
import type { PortalsDeps } from './portals.deps.ts'

// The portal's two mails: an invitation (a 7-day link) and a sign-in link (30 minutes). Plain
// text first, so the link stays visible in every client; the HTML is the same words, escaped,
// since the portal's name and the inviter's are typed by people.

/** Where a member's link opens: the portal's custom domain when it has one, else `/p/{slug}` here. */
export function portalSignInUrl(
	deps: Pick<PortalsDeps, 'publicUrl'>,
	portal: { slug: string; customDomain: string | null },
	token: string,
): string {
	const query = `sign-in?token=${encodeURIComponent(token)}`
	if (portal.customDomain) {
		return `https://${portal.customDomain}/${query}`
	}
	return `${deps.publicUrl.replace(/\/+$/, '')}/p/${portal.slug}/${query}`
}

function escapeHtml(text: string): string {
	return text
		.replaceAll('&', '&amp;')
		.replaceAll('<', '&lt;')
		.replaceAll('>', '&gt;')
		.replaceAll('"', '&quot;')
		.replaceAll("'", '&#39;')
}

/** Paragraphs as simple HTML; the paragraph equal to `url` becomes its link. */
function htmlOf(paragraphs: string[], url: string): string {
	const body = paragraphs
		.map((paragraph) =>
			paragraph === url
				? `<p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`
				: `<p>${escapeHtml(paragraph)}</p>`,
		)
		.join('\n')
	return `<!doctype html>\n<html><body style="font-family: sans-serif; line-height: 1.5">\n${body}\n</body></html>\n`
}

function message(to: string, subject: string, paragraphs: string[], url: string): MailMessage {
	return { to, subject, text: `${paragraphs.join('\n\n')}\n`, html: htmlOf(paragraphs, url) }
}

export function portalInvitationMail(
	to: string,
	options: { portalName: string; inviterName: string | null; url: string },
): MailMessage {
	const who = options.inviterName?.trim() || 'A team'
	return message(
		to,
		`${who} invited you to ${options.portalName}`,
		[
			'Hello,',
			`${who} invited you to ${options.portalName}, where you can see your projects, documents and updates.`,
			'Open it with this link (no password needed):',
			options.url,
			'The link works once, for 7 days. Later, ask for a new sign-in link on the portal’s sign-in page.',
		],
		options.url,
	)
}

export function portalSignInMail(to: string, options: { portalName: string; url: string }): MailMessage {
	return message(
		to,
		`Your sign-in link for ${options.portalName}`,
		[
			'Hello,',
			`Here is your link to sign in to ${options.portalName}:`,
			options.url,
			'It works once, for 30 minutes. If you did not ask for it, ignore this message.',
		],
		options.url,
	)
}
