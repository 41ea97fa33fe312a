import { emailSchema } from '@blocksmith/contracts/common.ts'

// Pasted lines or an uploaded CSV, read in the browser into invitees before anything is sent:
// `email, name, company` per line (name and company may be left out), commas or semicolons or
// tabs (a spreadsheet's copy), double quotes around a value that holds one of them, and a header
// line is recognised and skipped. Each line keeps its number, so the preview and the server's
// refusals point at the same line the person typed.

export type InviteLine = {
	/** 1-based line of the text, as an editor numbers it. */
	line: number
	email: string
	name: string | null
	company: string | null
	error: string | null
}

export const maxInvitees = 500

/** Splits one CSV record; `"a, b"` keeps its comma, `""` inside quotes is one quote. */
function splitRecord(text: string, separator: string): string[] {
	const cells: string[] = []
	let cell = ''
	let isQuoted = false
	for (let index = 0; index < text.length; index++) {
		const char = text[index]
		if (isQuoted) {
			if (char === '"' && text[index + 1] === '"') {
				cell += '"'
				index++
			} else if (char === '"') {
				isQuoted = false
			} else {
				cell += char
			}
		} else if (char === '"' && cell.trim() === '') {
			isQuoted = true
			cell = ''
		} else if (char === separator) {
			cells.push(cell.trim())
			cell = ''
		} else {
			cell += char
		}
	}
	cells.push(cell.trim())
	return cells
}

/** Records of the text: line breaks inside quotes stay in their value; each record keeps its first line's number. */
function records(text: string): { line: number; text: string }[] {
	const found: { line: number; text: string }[] = []
	let current = ''
	let start = 1
	let line = 1
	let isQuoted = false
	for (const char of text.replace(/\r\n?/g, '\n')) {
		if (char === '"') {
			isQuoted = !isQuoted
		}
		if (char === '\n' && !isQuoted) {
			found.push({ line: start, text: current })
			current = ''
			line++
			start = line
			continue
		}
		if (char === '\n') {
			line++
		}
		current += char
	}
	found.push({ line: start, text: current })
	return found.filter((record) => record.text.trim() !== '')
}

/** The separator most lines use: a tab (pasted from a spreadsheet), a semicolon (a European CSV) or a comma. */
function separatorOf(lines: string[]): string {
	const sample = lines.slice(0, 20).join('\n')
	const count = (char: string) => sample.split(char).length - 1
	if (count('\t') > 0) {
		return '\t'
	}
	return count(';') > count(',') ? ';' : ','
}

const headerWords = /^(e-?mail|email address|mail)$/i

/** Reads the text into lines to invite, each with what is wrong with it (null: fine). */
export function parseInvitees(text: string): InviteLine[] {
	const found = records(text)
	const separator = separatorOf(found.map((record) => record.text))
	const rows = found.map((record) => ({ line: record.line, cells: splitRecord(record.text, separator) }))
	// A header names the columns: their order then comes from it (`name, email` works too).
	let columns = { email: 0, name: 1, company: 2 }
	const header = rows[0]?.cells.map((cell) => cell.toLowerCase())
	if (header?.some((cell) => headerWords.test(cell))) {
		const at = (test: (cell: string) => boolean) => header.findIndex(test)
		columns = {
			email: at((cell) => headerWords.test(cell)),
			name: at((cell) => /^(full )?name$/.test(cell)),
			company: at((cell) => /^(company|client|organi[sz]ation|account)$/.test(cell)),
		}
		rows.shift()
	}
	const seen = new Set<string>()
	return rows.map(({ line, cells }) => {
		const raw = cells[columns.email] ?? ''
		const name = columns.name >= 0 ? cells[columns.name] || null : null
		const company = columns.company >= 0 ? cells[columns.company] || null : null
		const parsed = emailSchema.safeParse(raw)
		let error: string | null = null
		let email = raw
		if (raw === '') {
			error = 'No e-mail address on this line.'
		} else if (!parsed.success) {
			error = `“${raw}” is not an e-mail address.`
		} else {
			email = parsed.data
			if (seen.has(email)) {
				error = 'This address is already on an earlier line.'
			}
			seen.add(email)
		}
		if (!error && name && name.length > 120) {
			error = 'The name is longer than 120 characters.'
		}
		if (!error && company && company.length > 200) {
			error = 'The company is longer than 200 characters.'
		}
		return { line, email, name, company, error }
	})
}

/** The lines that can be sent, as the API takes them. */
export function invitees(lines: InviteLine[]) {
	return lines
		.filter((line) => line.error === null)
		.map((line) => ({ email: line.email, name: line.name, company: line.company }))
}
