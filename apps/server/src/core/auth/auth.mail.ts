import type { MailMessage } from '#src/lib/mail.ts'

// The texts of account mail. Plain text first: it reads everywhere and keeps links visible.

export function confirmEmailMail(to: string, name: string, url: string): MailMessage {
	return {
		to,
		subject: 'Confirm your e-mail address',
		text: `Hello ${name},\n\nConfirm your e-mail address for Blocksmith by opening this link:\n\n${url}\n\nThe link works for 24 hours. If you did not sign up, ignore this message.\n`,
	}
}

export function resetPasswordMail(to: string, name: string, url: string): MailMessage {
	return {
		to,
		subject: 'Reset your password',
		text: `Hello ${name},\n\nSomeone asked to reset the password of your Blocksmith account. To choose a new password, open:\n\n${url}\n\nThe link works for one hour and only once. If it was not you, ignore this message: your password stays as it is.\n`,
	}
}

export function changeEmailMail(to: string, name: string, newEmail: string, url: string): MailMessage {
	return {
		to,
		subject: 'Confirm your new e-mail address',
		text: `Hello ${name},\n\nTo change the e-mail address of your Blocksmith account to ${newEmail}, open:\n\n${url}\n\nIf it was not you, ignore this message and change your password.\n`,
	}
}

export function invitationMail(to: string, inviterName: string, organizationName: string, url: string): MailMessage {
	return {
		to,
		subject: `${inviterName} invited you to ${organizationName} on Blocksmith`,
		text: `Hello,\n\n${inviterName} invited you to join ${organizationName} on Blocksmith.\n\nAccept the invitation here (you can create an account on the way):\n\n${url}\n\nThe invitation expires in 7 days.\n`,
	}
}
