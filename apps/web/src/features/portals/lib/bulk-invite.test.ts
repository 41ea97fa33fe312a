import { describe, expect, test } from 'vitest'
import { invitees, parseInvitees } from './bulk-invite.ts'

describe('bulk invite lines', () => {
	test('pasted lines: e-mail, name and company; blank lines skipped; e-mails lower-cased', () => {
		const lines = parseInvitees('Ana@Northwind.com, Ana Lima, Northwind\n\nben@contoso.com\n')
		expect(lines).toEqual([
			{ line: 1, email: 'ana@northwind.com', name: 'Ana Lima', company: 'Northwind', error: null },
			{ line: 3, email: 'ben@contoso.com', name: null, company: null, error: null },
		])
	})

	test('a CSV with quotes: a comma and a doubled quote inside a value, a line break inside quotes', () => {
		const csv = [
			'email,name,company',
			'"cara@acme.io","Cara ""CJ"" Jones","Acme, Inc."',
			'dan@acme.io,Dan,"Acme,',
			' Inc."',
			'eve@globex.com,Eve,Globex',
		].join('\r\n')
		const lines = parseInvitees(csv)
		expect(lines.map(({ line, email, name, company }) => ({ line, email, name, company }))).toEqual([
			{ line: 2, email: 'cara@acme.io', name: 'Cara "CJ" Jones', company: 'Acme, Inc.' },
			{ line: 3, email: 'dan@acme.io', name: 'Dan', company: 'Acme,\n Inc.' },
			{ line: 5, email: 'eve@globex.com', name: 'Eve', company: 'Globex' },
		])
		expect(lines.every((line) => line.error === null)).toBe(true)
	})

	test('a header gives the columns their order; semicolons and tabs separate too', () => {
		expect(parseInvitees('Name;Company;E-mail\nFay;Initech;fay@initech.com')).toEqual([
			{ line: 2, email: 'fay@initech.com', name: 'Fay', company: 'Initech', error: null },
		])
		expect(parseInvitees('gus@hooli.com\tGus\tHooli')[0]).toMatchObject({ name: 'Gus', company: 'Hooli' })
	})

	test('bad e-mails, missing e-mails and repeated addresses are flagged on their line and not sent', () => {
		const lines = parseInvitees(
			'ana@northwind.com, Ana\nnot-an-email, Bob\n, Carl, Acme\nANA@northwind.com, Ana again\nana@northwind, X',
		)
		expect(lines.map((line) => [line.line, line.error])).toEqual([
			[1, null],
			[2, '“not-an-email” is not an e-mail address.'],
			[3, 'No e-mail address on this line.'],
			[4, 'This address is already on an earlier line.'],
			[5, '“ana@northwind” is not an e-mail address.'],
		])
		expect(invitees(lines)).toEqual([{ email: 'ana@northwind.com', name: 'Ana', company: null }])
	})
})
