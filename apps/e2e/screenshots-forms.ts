import { createHash, randomUUID } from 'node:crypto'
import { crc32, deflateSync } from 'node:zlib'
import type { Page } from 'playwright-core'
import type { createHttpApi } from './http-api.ts'
import { randomClientIp } from './http-api.ts'
import { waitForMail } from './mail.ts'

// Forms, part 3 in the screenshots (screenshots.ts): the template gallery, the new question kinds
// on a public page, a paged form on page 2 of 3, one question at a time, the share panel, an
// answer opened in full and the drop-off of a form's visits (taken before the paged form's
// pictures, whose visits would count too). Hedy's organization of its own, so
// the pictures of Ada's forms (the list, the billing meters) stay as their captions say.

type HttpApi = ReturnType<typeof createHttpApi>
type Viewport = 'desktop' | 'phone'
type Theme = 'light' | 'dark'

type Field = { id: string; kind: string; label: string; propertyId: string | null; hidden?: boolean }
type Form = { id: string; name: string; fields: Field[] }
type DirectUpload = { id: string; directUpload: { url: string; headers: Record<string, string> } }

/** What screenshots.ts needs of a shot (its own Shot type has more, all optional). */
type FormShot = {
	name: string
	caption: string
	path: string
	isSignedIn: boolean
	token?: string
	ready: (page: Page) => Promise<void>
	prepare?: (page: Page) => Promise<void>
	viewports?: Viewport[]
	phoneThemes?: Theme[]
	isWindowOnly?: boolean
	desktopSize?: { width: number; height: number }
	expectedProblems?: RegExp[]
}

export type SeededFormShots = Awaited<ReturnType<typeof seedFormShots>>

const pdfBytes = Buffer.from('%PDF-1.4\n% a résumé for the screenshots\n')

/** An RGB PNG drawn by `pixel`. */
function png(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
	const raw = Buffer.alloc((width * 3 + 1) * height)
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			raw.set(pixel(x, y), y * (width * 3 + 1) + 1 + x * 3)
		}
	}
	const chunk = (type: string, data: Buffer) => {
		const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
		const length = Buffer.alloc(4)
		length.writeUInt32BE(data.byteLength)
		const crc = Buffer.alloc(4)
		crc.writeUInt32BE(crc32(body))
		return Buffer.concat([length, body, crc])
	}
	const header = Buffer.alloc(13)
	header.writeUInt32BE(width, 0)
	header.writeUInt32BE(height, 4)
	header.set([8, 2, 0, 0, 0], 8)
	return Buffer.concat([
		Buffer.from('89504e470d0a1a0a', 'hex'),
		chunk('IHDR', header),
		chunk('IDAT', deflateSync(raw)),
		chunk('IEND', Buffer.alloc(0)),
	])
}

/** A handwritten-looking stroke in dark ink on white, as the signature pad sends it. */
function signaturePng(): Buffer {
	const width = 480
	const height = 160
	const points: [number, number][] = []
	for (let step = 0; step <= 900; step++) {
		const t = step / 900
		const loop = Math.sin(t * Math.PI * 11)
		points.push([50 + 380 * t + 18 * Math.cos(t * Math.PI * 11), 82 - 34 * loop * (0.55 + 0.45 * Math.sin(t * 5))])
	}
	return png(width, height, (x, y) => {
		let nearest = Number.POSITIVE_INFINITY
		for (const [px, py] of points) {
			nearest = Math.min(nearest, (px - x) ** 2 + (py - y) ** 2)
		}
		const ink = Math.max(0, Math.min(1, 2.6 - Math.sqrt(nearest)))
		const shade = (paper: number, pen: number) => Math.round(paper + (pen - paper) * ink)
		return [shade(255, 17), shade(255, 24), shade(255, 39)]
	})
}

/** Announces a visitor's file for a form's file or signature question and PUTs it; the answer entry. */
async function uploadAnswerFile(
	api: HttpApi,
	baseUrl: string,
	formId: string,
	fieldId: string,
	file: { name: string; type: string; bytes: Buffer },
): Promise<{ blobId: string; name: string }> {
	const announced = await api.callOk<DirectUpload>(`/api/forms/${formId}/uploads`, {
		json: {
			fieldId,
			filename: file.name,
			byteSize: file.bytes.byteLength,
			checksum: createHash('md5').update(file.bytes).digest('base64'),
			contentType: file.type,
		},
	})
	const url = new URL(announced.directUpload.url)
	const response = await fetch(`${baseUrl}${url.pathname}${url.search}`, {
		method: 'PUT',
		headers: { ...announced.directUpload.headers, 'x-forwarded-for': randomClientIp() },
		body: new Uint8Array(file.bytes),
	})
	if (!response.ok) {
		throw new Error(`PUT ${url.pathname}: ${response.status} ${await response.text()}`)
	}
	return { blobId: announced.id, name: file.name }
}

/** Sends an answer as the public page does (the screenshots' server takes answers at once). */
async function submit(api: HttpApi, formId: string, answers: Record<string, unknown>): Promise<void> {
	const page = await api.callOk<{ renderToken: string }>(`/api/forms/${formId}`)
	await api.callOk('/api/submissions', {
		json: { formId, answers, idempotencyKey: randomUUID(), renderToken: page.renderToken },
	})
}

async function until<T>(what: string, read: () => Promise<T>, isDone: (value: T) => boolean): Promise<T> {
	const deadline = Date.now() + 60_000
	for (let value = await read(); ; value = await read()) {
		if (isDone(value)) {
			return value
		}
		if (Date.now() > deadline) {
			throw new Error(`timed out waiting for ${what}`)
		}
		await new Promise((resolve) => setTimeout(resolve, 500))
	}
}

/**
 * Hedy's organization, "Frequency Labs", with the sample workspace and three forms each on a
 * database of its own: "Workshop feedback" (every new question kind, published, answered twice
 * with a signature), "Job application" (the template's three pages, published, with visits that
 * stopped along the way and six answers) and "Quick feedback" (the NPS template one question at
 * a time).
 */
export async function seedFormShots(api: HttpApi, baseUrl: string, dataDir: string) {
	const hedy = await api.signUp({ name: 'Hedy Lamarr', email: 'hedy@example.com', password: 'frequency hopping' })
	const token = hedy.token
	const confirmation = await waitForMail(dataDir, hedy.email, (mail) => mail.subject === 'Confirm your e-mail address')
	const confirmToken = new URL(confirmation.links.find((link) => link.includes('/confirm')) ?? '').searchParams.get(
		'token',
	)
	await api.callOk('/api/confirm_user', { json: { token: confirmToken } })
	const org = await api.callOk<{ id: string }>('/dashboard/users/get_org_details', { token })
	await api.callOk('/api/auth/organization/update', {
		token,
		json: { organizationId: org.id, data: { name: 'Frequency Labs' } },
	})
	await api.callOk('/dashboard/workspaces/sample', { token, json: {} })
	const browserToken = await api.signIn(hedy.email, hedy.password)

	const create = (name: string, template?: string) =>
		api.callOk<Form>('/dashboard/forms', {
			token,
			json: { name, newDatabase: {}, ...(template ? { template } : {}) },
		})
	const update = (id: string, changes: Record<string, unknown>) =>
		api.callOk<Form>(`/dashboard/forms/${id}`, { token, method: 'PATCH', json: changes })

	// Every new kind on one page, kept with the answers (no property), after a heading and a paragraph.
	const createdKinds = await create('Workshop feedback')
	const title = createdKinds.fields.find((field) => field.propertyId !== null)
	if (!title) {
		throw new Error('a new form asks for its title property')
	}
	const question = (id: string, kind: string, label: string, extra: Record<string, unknown> = {}) => ({
		id,
		kind,
		label,
		propertyId: null,
		...extra,
	})
	const kinds = await update(createdKinds.id, {
		fields: [
			question('intro-heading', 'heading', 'Thank you for coming'),
			question('intro', 'paragraph', 'Introduction', {
				body: 'Tell us how the **Thursday workshop** went. Slides are on [our site](https://example.com/slides).',
			}),
			{ ...title, label: 'Your name', required: true },
			question('stars', 'rating', 'How was the workshop?', { required: true, scale: { min: 1, max: 5 } }),
			question('pace', 'scale', 'How was the pace?', {
				scale: { min: 1, max: 7, minLabel: 'Too slow', maxLabel: 'Too fast' },
			}),
			question('nps', 'nps', 'How likely are you to recommend the workshop to a colleague?'),
			question('sessions', 'ranking', 'Rank the sessions, best first', {
				choices: ['Keynote', 'Hands-on lab', 'Panel', 'Questions and answers'],
			}),
			question('parts', 'matrix', 'How good was each part?', {
				matrix: { rows: ['Content', 'Speakers', 'Venue'], columns: ['Poor', 'Fair', 'Good', 'Great'], multiple: false },
			}),
			question('divider', 'divider', 'Divider'),
			question('seats', 'number', 'Seats for the next workshop', { helpText: '€49.90 a seat.' }),
			question('price', 'calculated', 'Your price', {
				calculation: {
					start: '0',
					steps: [
						{ when: [], operation: 'add', operand: { fieldId: 'seats' } },
						{ when: [], operation: 'multiply', operand: { value: '49.90' } },
					],
					decimals: 2,
					prefix: '€',
					suffix: null,
				},
			}),
			question('signature', 'signature', 'Sign to book the seats'),
		],
		page: {
			pageTitle: 'Workshop feedback',
			pageDescription: 'Two minutes, and we will make the next one better.',
		},
		submitLabel: 'Send feedback',
		published: true,
	})
	await submit(api, kinds.id, {
		[title.id]: 'Grace Hopper',
		stars: 5,
		pace: 5,
		nps: 10,
		sessions: ['Hands-on lab', 'Keynote', 'Questions and answers', 'Panel'],
		parts: { Content: 'Great', Speakers: 'Good', Venue: 'Fair' },
		seats: 3,
		signature: [
			await uploadAnswerFile(api, baseUrl, kinds.id, 'signature', {
				name: 'signature.png',
				type: 'image/png',
				bytes: signaturePng(),
			}),
		],
	})
	await submit(api, kinds.id, { [title.id]: 'Alan Turing', stars: 4, nps: 8, seats: 1 })
	const { submissions } = await until(
		'the workshop answers delivered',
		() =>
			api.callOk<{ submissions: { id: string; answers: Record<string, unknown>; delivery: { state: string } }[] }>(
				`/dashboard/forms/${kinds.id}/submissions`,
				{ token },
			),
		(page) => page.submissions.length === 2 && page.submissions.every((one) => one.delivery.state === 'delivered'),
	)
	const graceAnswer = submissions.find((one) => one.answers[title.id] === 'Grace Hopper')
	if (!graceAnswer) {
		throw new Error('Grace’s answer is missing')
	}

	// The job application template: three pages, visits stopping along the way, and six answers.
	const jobs = await create('Job application', 'job_application')
	await update(jobs.id, { published: true })
	const jobField = (label: string) => {
		const found = jobs.fields.find((field) => field.label === label)
		if (!found) {
			throw new Error(`the job application has no "${label}"`)
		}
		return found.id
	}
	const applicants = ['Rosalind Franklin', 'Lise Meitner', 'Chien-Shiung Wu', 'Barbara McClintock', 'Emmy Noether']
	for (const [index, name] of [...applicants, 'Dorothy Vaughan'].entries()) {
		await submit(api, jobs.id, {
			[jobField('Full name')]: name,
			[jobField('Email')]: `${name.split(' ')[0]?.toLowerCase()}@example.com`,
			[jobField('Which role are you applying for?')]: ['Engineering', 'Design', 'Product'][index % 3],
			[jobField('Résumé')]: [
				await uploadAnswerFile(api, baseUrl, jobs.id, jobField('Résumé'), {
					name: 'resume.pdf',
					type: 'application/pdf',
					bytes: pdfBytes,
				}),
			],
			[jobField('Why do you want to work with us?')]: 'I would like to build things people use every day.',
			[jobField('You may keep my application for 12 months')]: true,
		})
	}
	// Forty visits: how many reached each step, in the form's order (page 1 counts every view).
	const reachedCounts: [string, number][] = [
		['Full name', 36],
		['Email', 35],
		['Phone', 33],
		['Which role are you applying for?', 32],
		['Where are you based?', 30],
		['Your experience', 27],
		['Years of relevant experience', 26],
		['Résumé', 24],
		['LinkedIn or portfolio', 15],
		['Why do you want to work with us?', 14],
		['Availability', 12],
		['Earliest start date', 11],
		['Salary expectations', 10],
		['How did you hear about us?', 9],
		['You may keep my application for 12 months', 8],
	]
	const visits = 40
	for (let visit = 0; visit < visits; visit++) {
		const steps = reachedCounts.filter(([, reached]) => visit < reached).map(([label]) => jobField(label))
		await api.callOk('/api/views', {
			json: {
				events: [
					{ formId: jobs.id, kind: 'view' },
					...(steps.length > 0 ? [{ formId: jobs.id, kind: 'start' }] : []),
					...steps.map((step) => ({ formId: jobs.id, kind: 'reach', step })),
				],
			},
		})
	}
	// The server writes what it counted every few seconds.
	await until(
		'the visits counted',
		() =>
			api.callOk<{ views: number; steps: { id: string; reached: number }[] }>(`/dashboard/forms/${jobs.id}/analytics`, {
				token,
			}),
		(analytics) =>
			analytics.views === visits &&
			analytics.steps.find((step) => step.id === jobField('You may keep my application for 12 months'))?.reached === 8,
	)

	// The feedback template one question at a time.
	const quick = await create('Quick feedback', 'feedback_nps')
	await update(quick.id, { layout: { display: 'one_at_a_time', showProgress: true }, published: true })

	return {
		token: browserToken,
		kinds: { id: kinds.id, answerId: graceAnswer.id },
		jobs: { id: jobs.id },
		quick: { id: quick.id },
	}
}

/** Clicks the box or star a visitor sees (the radio's label: the radio itself is visually hidden). */
async function clickBox(page: Page, group: string, choice: string | RegExp): Promise<void> {
	await page.getByRole('radiogroup', { name: group }).getByRole('radio', { name: choice }).locator('xpath=..').click()
}

/** A window tall enough for the gallery's and the share panel's dialogs to show whole. */
const tallDialog = { width: 1280, height: 1180 }

export function formShots(seeded: SeededFormShots): FormShot[] {
	const publicShot = {
		isSignedIn: false,
		viewports: ['desktop', 'phone'] as Viewport[],
		phoneThemes: ['light', 'dark'] as Theme[],
	}
	return [
		{
			name: 'form-templates',
			caption:
				'New form: where the answers go (a new database by default) and the gallery, start from scratch or one of seven templates, each saying what it asks',
			path: '/forms',
			isSignedIn: true,
			token: seeded.token,
			ready: async (page) => {
				await page.getByRole('heading', { level: 1, name: 'Forms' }).waitFor()
				await page
					.getByRole('table', { name: 'Forms' })
					.getByRole('link', { name: 'Quick feedback', exact: true })
					.waitFor()
			},
			prepare: async (page) => {
				await page.getByRole('button', { name: 'New form' }).first().click()
				await page
					.getByRole('dialog', { name: 'New form' })
					.getByRole('list', { name: 'Templates' })
					.getByRole('button', { name: /^Bug report/ })
					.waitFor()
			},
			isWindowOnly: true,
			desktopSize: tallDialog,
		},
		{
			name: 'form-analytics-drop-off',
			caption:
				'A form’s analytics with drop-off: forty visits to the three-page Job application, each page with its questions, how many reached each, and the résumé upload marked as the biggest drop',
			path: `/forms/${seeded.jobs.id}/analytics`,
			isSignedIn: true,
			token: seeded.token,
			ready: async (page) => {
				await page.getByRole('region', { name: 'Drop-off' }).getByText('Biggest drop', { exact: true }).waitFor()
				await page.getByRole('figure', { name: 'Views and submissions per day' }).locator('svg').first().waitFor()
				// Recharts draws its areas and bars in with an animation of its own.
				await page.waitForTimeout(2000)
			},
		},
		{
			...publicShot,
			name: 'public-form-new-kinds',
			caption:
				'A published form with every new question kind, part answered: stars, a 1–7 scale, NPS, a ranking, a matrix, a price calculated from the seats, a signature drawn with the mouse; a heading, a paragraph with bold and a link, a divider',
			path: `/forms/${seeded.kinds.id}`,
			ready: async (page) => {
				await page.getByRole('heading', { level: 1, name: 'Workshop feedback' }).waitFor()
				await page.getByRole('img', { name: /^Signature pad/ }).waitFor()
			},
			prepare: async (page) => {
				await page.getByRole('textbox', { name: 'Your name' }).fill('Katherine Johnson')
				await clickBox(page, 'How was the workshop?', '4 stars')
				await clickBox(page, 'How was the pace?', /^5$/)
				await clickBox(page, 'How likely are you to recommend the workshop to a colleague?', /^9$/)
				const parts = page.getByRole('group', { name: 'How good was each part?' })
				await parts.getByRole('radio').first().waitFor()
				for (const [row, column] of [
					['Content', 'Great'],
					['Speakers', 'Good'],
				] as const) {
					// A table on a wide screen (each radio named by its row and column), a group per row on a narrow one.
					const inTable = parts.getByRole('radio', { name: `${row} ${column}`, exact: true })
					await ((await inTable.count()) > 0
						? inTable
						: parts.getByRole('group', { name: row }).getByRole('radio', { name: column })
					).check()
				}
				await page.getByRole('textbox', { name: 'Seats for the next workshop' }).fill('2')
				await page.getByText('€99.80').first().waitFor()
				const pad = page.getByRole('img', { name: /^Signature pad/ })
				await pad.scrollIntoViewIfNeeded()
				const box = await pad.boundingBox()
				if (box) {
					const y = box.y + box.height / 2
					await page.mouse.move(box.x + 40, y)
					await page.mouse.down()
					for (let step = 1; step <= 40; step++) {
						await page.mouse.move(
							box.x + 40 + step * Math.min(9, (box.width - 80) / 40),
							y - 30 * Math.sin(step / 2.2),
							{ steps: 2 },
						)
					}
					await page.mouse.up()
				}
				await page.getByText('Signature saved.').waitFor()
				await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
			},
		},
		{
			...publicShot,
			name: 'public-form-paged',
			caption:
				'A three-page form (the Job application template) on page 2 of 3: the progress bar, its questions, Back and Next',
			path: `/forms/${seeded.jobs.id}`,
			ready: async (page) => {
				await page.getByRole('heading', { name: 'Apply to join us' }).waitFor()
			},
			prepare: async (page) => {
				await page.getByRole('textbox', { name: 'Full name' }).fill('Rosalind Franklin')
				await page.getByRole('textbox', { name: 'Email' }).fill('rosalind@example.com')
				await page
					.getByRole('radiogroup', { name: 'Which role are you applying for?' })
					.getByRole('radio', { name: 'Engineering' })
					.check()
				await page.getByRole('button', { name: 'Next' }).click()
				await page.getByRole('textbox', { name: 'Years of relevant experience' }).fill('6')
				await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
			},
		},
		{
			...publicShot,
			name: 'public-form-one-at-a-time',
			caption:
				'One question at a time (the Feedback with NPS template): the question with the words before it, its keys (0 to 9, or 1 then 0 for 10), the progress and OK or Enter',
			path: `/forms/${seeded.quick.id}`,
			ready: async (page) => {
				await page.getByText('Enter ↵').waitFor()
			},
			prepare: async (page) => {
				await page.keyboard.press('Tab')
				await page.keyboard.press('9')
			},
		},
		{
			name: 'form-share',
			caption:
				'Share, on a published form: the link to copy, its QR code (PNG or SVG), the inline, popup and full-page embed codes, and the link card social sites show',
			path: `/forms/${seeded.kinds.id}/edit`,
			isSignedIn: true,
			token: seeded.token,
			ready: async (page) => {
				await page.getByRole('heading', { level: 1, name: 'Workshop feedback' }).waitFor()
				await page.getByRole('list', { name: 'Fields' }).getByRole('button', { name: 'Edit Your price' }).waitFor()
			},
			prepare: async (page) => {
				await page.getByRole('button', { name: 'Share', exact: true }).click()
				const dialog = page.getByRole('dialog', { name: 'Share Workshop feedback' })
				await dialog.getByRole('button', { name: 'Copy link' }).waitFor()
				await dialog.getByRole('img').first().waitFor()
			},
			isWindowOnly: true,
			desktopSize: tallDialog,
		},
		{
			name: 'form-submission-detail',
			caption:
				'One answer in full: every question (stars, NPS, the ranking, the matrix, the calculated price, the signature as an image), its delivery with each attempt, Open row and Delete',
			path: `/forms/${seeded.kinds.id}/submissions/${seeded.kinds.answerId}`,
			isSignedIn: true,
			token: seeded.token,
			ready: async (page) => {
				const answers = page.getByRole('region', { name: 'Answers' })
				await answers.getByText('Grace Hopper').waitFor()
				await answers.getByRole('img', { name: /^Signature for/ }).waitFor()
				await page.waitForFunction(() =>
					Array.from(document.images).every((image) => image.complete && image.naturalWidth > 0),
				)
			},
		},
	]
}
