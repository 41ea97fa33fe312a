import { describe, expect, test } from 'vitest'
import { portalInvitationMail, portalSignInMail, portalSignInUrl } from './portals.mail.ts'

// The portal's mails: links to the right host, and names typed by people escaped in the HTML.

describe('portal mails', () => {
	test('links open /p/{slug} here, or the custom domain over https', () => {
		const deps = { publicUrl: 'https://app.example.com/' }
		expect(portalSignInUrl(deps, { slug: 'acme', customDomain: null }, 'a+b/c')).toBe(
			'https://app.example.com/p/acme/sign-in?token=a%2Bb%2Fc',
		)
		expect(portalSignInUrl(deps, { slug: 'acme', customDomain: 'portal.acme.example' }, 'tok')).toBe(
			'https://portal.acme.example/sign-in?token=tok',
		)
	})

	test('the invitation names the portal and who invited; the HTML escapes both and links the URL', () => {
		const url = 'https://app.example.com/p/acme/sign-in?token=abc&x=1'
		const mail = portalInvitationMail('client@example.com', {
			portalName: '<b>Acme & Co</b>',
			inviterName: 'Olive "O" Owner',
			url,
		})
		expect(mail.subject).toBe('Olive "O" Owner invited you to <b>Acme & Co</b>')
		expect(mail.text).toContain(`\n\n${url}\n\n`)
		expect(mail.text).toMatch(/7 days/)
		expect(mail.html).toContain('&lt;b&gt;Acme &amp; Co&lt;/b&gt;')
		expect(mail.html).toContain('Olive &quot;O&quot; Owner')
		expect(mail.html).not.toContain('<b>')
		expect(mail.html).toContain(`<a href="${url.replace('&', '&amp;')}">`)
	})

	test('without an inviter’s name the invitation still reads; the sign-in mail says 30 minutes', () => {
		expect(portalInvitationMail('c@example.com', { portalName: 'P', inviterName: ' ', url: 'u' }).subject).toBe(
			'A team invited you to P',
		)
		const signIn = portalSignInMail('c@example.com', { portalName: 'P', url: 'https://x.example/sign-in?token=t' })
		expect(signIn.subject).toBe('Your sign-in link for P')
		expect(signIn.text).toMatch(/30 minutes/)
	})
})
