import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { type Account, createHttpApi, uniqueEmail } from '../../http-api.ts'
import { type Mail, waitForMail } from '../../mail.ts'
import { repoDir, type ServerUnderTest, startServer } from '../../server-process.ts'

// What the billing journeys share: Settings → Billing's parts by the names a user reads, a
// server of a journey's own (a trial of seconds, or Stripe), and the setup a journey is not about
// (a published form, a member who joined), made through the API as another device would.

export type HttpApi = ReturnType<typeof createHttpApi>

export const billingPath = '/settings?tab=billing'

export function toast(page: Page, text: string | RegExp): Locator {
	return page.locator('[data-sonner-toast]').filter({ hasText: text })
}

/** The subscription card's heading: "<Plan> plan" and the state's badge. */
export function planHeading(page: Page, planName: string): Locator {
	return page.getByRole('heading', { level: 3, name: new RegExp(`^${planName} plan`) })
}

/** Settings → Billing, loaded: the plan's card is there. */
export async function openBilling(page: Page, planName: string): Promise<void> {
	await page.goto(billingPath)
	await planHeading(page, planName).waitFor()
}

/** A usage meter, named after its limit ("Team members"); its value text reads "5 of 25". */
export function meter(page: Page, name: string): Locator {
	return page.getByRole('progressbar', { name, exact: true })
}

export async function assertMeter(page: Page, name: string, text: string): Promise<void> {
	assert.equal(await meter(page, name).getAttribute('aria-valuetext'), text, `the ${name} meter`)
}

/** Opens a confirmation ("Are you sure?") from its button and confirms it. */
export async function confirmAction(page: Page, trigger: string, title: string, confirm: string): Promise<void> {
	await page.getByRole('button', { name: trigger, exact: true }).click()
	const dialog = page.getByRole('alertdialog', { name: title })
	await dialog.getByRole('button', { name: confirm, exact: true }).click()
	await dialog.waitFor({ state: 'detached' })
}

type OrgDetails = {
	id: string
	name: string
	plan: string
	subscriptionState: string
	pauseReason: string | null
	trialEndsAt: string | null
}

export async function orgDetails(api: HttpApi, token: string): Promise<OrgDetails> {
	return api.callOk<OrgDetails>('/dashboard/users/get_org_details', { token })
}

/** Polls `check` until it answers true: for what a server or a webhook does in its own time. */
export async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
	const deadline = Date.now() + timeoutMs
	while (!(await check())) {
		if (Date.now() > deadline) {
			throw new Error(`${what}: not within ${timeoutMs / 1000} s`)
		}
		await new Promise((resolve) => setTimeout(resolve, 250))
	}
}

export type OwnServer = {
	baseUrl: string
	api: HttpApi
	waitForMail: (to: string, matches?: (mail: Mail) => boolean) => Promise<Mail>
	/** Stops the server and removes its folder; fails on an unclean exit. */
	stop: () => Promise<void>
}

/**
 * A server of the journey's own, on its own database and mail folder, with settings the shared
 * one must not have (they would change every other journey).
 */
export async function startOwnServer(env: Record<string, string>): Promise<OwnServer> {
	const dataDir = mkdtempSync(path.join(tmpdir(), 'blocksmith-e2e-billing-'))
	let server: ServerUnderTest
	try {
		server = await startServer({ dataDir, env })
	} catch (error) {
		rmSync(dataDir, { recursive: true, force: true })
		throw error
	}
	return {
		baseUrl: server.baseUrl,
		api: createHttpApi(server.baseUrl),
		waitForMail: (to, matches) => waitForMail(dataDir, to, matches),
		stop: async () => {
			const problem = await server.stop()
			rmSync(dataDir, { recursive: true, force: true })
			assert.equal(problem, undefined, problem)
		},
	}
}

/** A published form on the sample workspace's Enquiries database; its id. */
export async function publishedForm(api: HttpApi, token: string, name: string): Promise<string> {
	await api.callOk('/dashboard/workspaces/sample', { token, method: 'POST' })
	const databases = await api.callOk<{ id: string; name: string }[]>('/dashboard/local/databases', { token })
	const enquiries = databases.find((database) => database.name === 'Enquiries')
	assert.ok(enquiries, 'the sample workspace has no Enquiries database')
	const form = await api.callOk<{ id: string }>('/dashboard/forms', { token, json: { name, databaseId: enquiries.id } })
	await api.callOk(`/dashboard/forms/${form.id}`, { token, method: 'PATCH', json: { published: true } })
	return form.id
}

/** Someone with an account of their own who accepts the owner's invitation: a member of the owner's organization. */
export async function joinedMember(server: OwnServer, owner: Account, name: string): Promise<Account> {
	const member = await server.api.signUp({ name, email: uniqueEmail('member') })
	const invitation = await server.api.callOk<{ id: string }>('/dashboard/team_invites', {
		token: owner.token,
		json: { email: member.email, role: 'member' },
	})
	const mail = await server.waitForMail(member.email, (candidate) => candidate.subject.includes('invited you'))
	const link = new URL(mail.links.find((href) => href.includes('/invite/')) ?? '')
	await server.api.callOk(`/dashboard/invitations/${invitation.id}/accept`, {
		token: member.token,
		json: { token: link.searchParams.get('token') },
	})
	return member
}

export type FakeStripeProcess = {
	/** e.g. http://127.0.0.1:41234: Stripe's API, its hosted pages, and the controls under /_fake */
	url: string
	/** The secret key the server is to use (the fake prints it). */
	apiKey: string
	/** A control: POSTs `json` (`/_fake/clock/advance`…), or GETs without it (`/_fake/events`); its JSON, failing on a non-2xx. */
	control: <T = unknown>(path: string, json?: unknown) => Promise<T>
	/** SIGTERM; fails on an unclean exit. */
	stop: () => Promise<void>
}

/**
 * The fake Stripe in a process of its own (`npm run fake-stripe`), as a developer runs it next to
 * the server: the server talks to it over HTTP with the official SDK, the browser opens its
 * hosted pages, and it POSTs signed webhooks to the server once told where (`/_fake/webhook`).
 */
export async function startFakeStripeProcess(): Promise<FakeStripeProcess> {
	const child = spawn(process.execPath, ['src/test/fake-stripe/main.ts'], {
		cwd: path.join(repoDir, 'apps/server'),
		// Port 0: the system picks a free one, and the fake says which.
		env: { ...process.env, PORT: '0', STRIPE_WEBHOOK_URL: '' },
		stdio: ['ignore', 'pipe', 'inherit'],
	})
	const stop = async (): Promise<void> => {
		if (child.exitCode === null && child.signalCode === null) {
			const exited = once(child, 'exit')
			child.kill('SIGTERM')
			await exited
		}
		assert.equal(child.exitCode, 0, `the fake Stripe exited with code ${child.exitCode} (signal ${child.signalCode})`)
	}
	let output = ''
	try {
		const ready = await new Promise<{ url: string; apiKey: string }>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`the fake Stripe did not start within 30 s:\n${output}`)), 30_000)
			child.once('exit', (code) =>
				reject(new Error(`the fake Stripe exited (code ${code}) before listening:\n${output}`)),
			)
			child.stdout.setEncoding('utf8')
			child.stdout.on('data', (chunk: string) => {
				output += chunk
				const url = /listening on (http:\/\/\S+)/.exec(output)?.[1]
				const apiKey = /STRIPE_SECRET_KEY=(\S+)/.exec(output)?.[1]
				if (url && apiKey) {
					clearTimeout(timer)
					resolve({ url, apiKey })
				}
			})
		})
		return {
			...ready,
			control: async <T>(controlPath: string, json?: unknown): Promise<T> => {
				const response = await fetch(
					`${ready.url}${controlPath}`,
					json === undefined
						? {}
						: { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) },
				)
				const text = await response.text()
				assert.ok(response.ok, `${json === undefined ? 'GET' : 'POST'} ${controlPath}: ${response.status} ${text}`)
				return JSON.parse(text) as T
			},
			stop,
		}
	} catch (error) {
		child.kill('SIGKILL')
		throw error
	}
}
