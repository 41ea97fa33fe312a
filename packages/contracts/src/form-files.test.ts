import { describe, expect, test } from 'vitest'
import { defaultFileRules, fileRulesOf, formatBytes, isAcceptedFile } from './form-files.ts'
import { formFieldSchema } from './forms.ts'

describe('isAcceptedFile', () => {
	test.each<[string[], string, string, boolean]>([
		[[], 'anything.exe', 'application/x-msdownload', true],
		[['.pdf'], 'CV.PDF', 'application/octet-stream', true],
		[['.pdf'], 'cv.pdf.exe', 'application/pdf', false],
		[['.pdf'], '.pdf', 'application/pdf', false],
		[['image/*'], 'photo.heic', 'image/heic', true],
		[['image/*'], 'photo.png', 'IMAGE/PNG; charset=binary', true],
		[['image/*'], 'notes.txt', 'text/plain', false],
		[['image/*'], 'trick.png', 'imagex/png', false],
		[['application/pdf'], 'cv.pdf', 'application/pdf', true],
		[['application/pdf'], 'cv.pdf', 'application/pdfx', false],
		[['.doc', '.docx', 'application/pdf'], 'letter.docx', 'application/vnd.openxmlformats', true],
		[['.doc', '.docx', 'application/pdf'], 'letter.odt', 'application/vnd.oasis.opendocument.text', false],
	])('%j accepts %s (%s): %s', (accept, name, type, expected) => {
		expect(isAcceptedFile(accept, name, type)).toBe(expected)
	})
})

describe('file rules', () => {
	test('a field without its own rules takes the defaults', () => {
		expect(fileRulesOf({ fileRules: null })).toEqual(defaultFileRules)
		expect(fileRulesOf({ fileRules: { maxFiles: 3, maxFileBytes: 2048, accept: ['.pdf'] } }).maxFiles).toBe(3)
	})

	test('the schema refuses more files or bytes than the limits, and odd type entries', () => {
		const base = { id: 'f', propertyId: 'p', kind: 'files', label: 'CV' }
		expect(formFieldSchema.safeParse({ ...base, fileRules: { maxFiles: 11 } }).success).toBe(false)
		expect(formFieldSchema.safeParse({ ...base, fileRules: { maxFileBytes: 21 * 1024 * 1024 } }).success).toBe(false)
		expect(formFieldSchema.safeParse({ ...base, fileRules: { accept: ['pdf'] } }).success).toBe(false)
		expect(formFieldSchema.safeParse({ ...base, fileRules: { accept: ['image/*', '.PDF'] } }).data?.fileRules).toEqual({
			maxFiles: 1,
			maxFileBytes: 10 * 1024 * 1024,
			accept: ['image/*', '.pdf'],
		})
	})

	test('sizes read as people say them', () => {
		expect(formatBytes(300)).toBe('1 KB')
		expect(formatBytes(512 * 1024)).toBe('512 KB')
		expect(formatBytes(10 * 1024 * 1024)).toBe('10 MB')
		expect(formatBytes(2.5 * 1024 * 1024)).toBe('2.5 MB')
	})
})
