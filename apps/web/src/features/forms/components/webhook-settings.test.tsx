import type { FormWebhook, WebhookDelivery } from '@blocksmith/contracts/forms.ts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { json, mockApi } from '#src/test/mock-api.tsx'
import { renderWithUser } from '#src/test/render.tsx'
import { WebhookSettings } from './webhook-settings.tsx'

const hook: FormWebhook = {
	id: 'w1',
	url: 'https://example.com/hook',
	secret: 'whsec_c2VjcmV0',
	enabled: true,
	createdAt: '2026-01-01T10:00:00.000Z',
}

const attempt = { at: '2026-01-02T10:00:00.000Z', status: 500, error: 'Internal Server Error', ms: 120 }
const deliveries: WebhookDelivery[] = [
	{
		id: 'd1',
		webhookId: 'w1',
		submissionId: 's1',
		state: 'dead',
		attempts: [attempt],
		nextAttemptAt: null,
		deliveredAt: null,
		createdAt: '2026-01-02T10:00:00.000Z',
	},
	{
		id: 'd2',
		webhookId: 'w1',
		submissionId: 's2',
		state: 'delivered',
		attempts: [{ ...attempt, at: '2026-01-02T11:00:00.000Z', status: 200, error: null }],
		nextAttemptAt: null,
		deliveredAt: '2026-01-02T11:00:00.000Z',
		createdAt: '2026-01-02T11:00:00.000Z',
	},
]

/** A server that keeps the webhooks of form f1. */
function webhookServer() {
	let hooks = [hook]
	return mockApi(({ method, path, body }) => {
		const base = '/dashboard/forms/f1/webhooks'
		if (path === base && method === 'GET') {
			return json(hooks)
		}
		if (path === base && method === 'POST') {
			const created = { ...hook, id: 'w2', url: (body as { url: string }).url, secret: 'whsec_bmV3' }
			hooks = [...hooks, created]
			return json(created, 201)
		}
		if (path === `${base}/w1` && method === 'PATCH') {
			hooks = hooks.map((item) => (item.id === 'w1' ? { ...item, ...(body as { enabled: boolean }) } : item))
			return json(hooks[0])
		}
		if (path === `${base}/w1` && method === 'DELETE') {
			hooks = hooks.filter((item) => item.id !== 'w1')
			return new Response(null, { status: 204 })
		}
		if (path === `${base}/w1/deliveries` && method === 'GET') {
			return json(deliveries)
		}
		if (path === `${base}/w1/deliveries/d1/retry` && method === 'POST') {
			return json({ ...deliveries[0], state: 'pending' })
		}
		return undefined
	})
}

function renderWebhooks() {
	const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
	return renderWithUser(
		<QueryClientProvider client={queryClient}>
			<WebhookSettings formId="f1" />
		</QueryClientProvider>,
	)
}

describe('webhooks', () => {
	test('lists the webhooks and adds one; a bad address is refused before sending', async () => {
		const server = webhookServer()
		const { user } = renderWebhooks()
		const list = await screen.findByRole('list', { name: 'Webhooks' })
		expect(within(list).getByText('https://example.com/hook')).toBeInTheDocument()
		expect(screen.getByText(/webhook-signature/)).toBeInTheDocument()

		const input = screen.getByRole('textbox', { name: 'Webhook URL' })
		await user.type(input, 'ftp://nope{Enter}')
		expect(input).toHaveAccessibleDescription('Enter a web address starting with https://.')
		expect(server.calls.filter((call) => call.method === 'POST')).toHaveLength(0)

		await user.clear(input)
		await user.type(input, 'https://example.org/new')
		await user.click(screen.getByRole('button', { name: 'Add webhook' }))
		await waitFor(() => expect(within(list).getByText('https://example.org/new')).toBeInTheDocument())
		expect(server.calls.find((call) => call.method === 'POST')).toMatchObject({
			path: '/dashboard/forms/f1/webhooks',
			body: { url: 'https://example.org/new' },
		})
		expect(input).toHaveValue('')
	})

	test('shows the secret, switches a webhook off and deletes it after confirming', async () => {
		const server = webhookServer()
		const { user } = renderWebhooks()
		await screen.findByRole('list', { name: 'Webhooks' })
		expect(screen.queryByText('whsec_c2VjcmV0')).not.toBeInTheDocument()
		await user.click(screen.getByRole('button', { name: 'Show the secret of https://example.com/hook' }))
		expect(screen.getByText('whsec_c2VjcmV0')).toBeInTheDocument()

		const enabled = screen.getByRole('switch', { name: 'Send answers to https://example.com/hook' })
		await user.click(enabled)
		await waitFor(() => expect(enabled).not.toBeChecked())
		expect(server.calls.find((call) => call.method === 'PATCH')).toMatchObject({
			path: '/dashboard/forms/f1/webhooks/w1',
			body: { enabled: false },
		})

		await user.click(screen.getByRole('button', { name: 'Delete the webhook https://example.com/hook' }))
		await user.click(await screen.findByRole('button', { name: 'Delete webhook' }))
		await waitFor(() => expect(screen.getByText('No webhooks yet.')).toBeInTheDocument())
		expect(
			server.calls.some((call) => call.method === 'DELETE' && call.path === '/dashboard/forms/f1/webhooks/w1'),
		).toBe(true)
	})

	test('shows the recent deliveries with their attempts, and retries one that gave up', async () => {
		const server = webhookServer()
		const { user } = renderWebhooks()
		await user.click(await screen.findByRole('button', { name: 'Recent deliveries to https://example.com/hook' }))
		const list = await screen.findByRole('list', { name: 'Deliveries to https://example.com/hook' })
		expect(server.calls.find((call) => call.path.endsWith('/deliveries'))?.search.get('limit')).toBe('20')
		expect(within(list).getByText('Gave up')).toBeInTheDocument()
		expect(within(list).getByText('Delivered')).toBeInTheDocument()
		const attempts = within(list).getByRole('list', { name: 'Attempts for answer s1' })
		expect(within(attempts).getByText('HTTP 500')).toBeInTheDocument()
		expect(within(attempts).getByText('Internal Server Error')).toBeInTheDocument()
		// Only failed and dead deliveries can be retried.
		expect(screen.queryByRole('button', { name: 'Retry the delivery of answer s2' })).not.toBeInTheDocument()

		await user.click(screen.getByRole('button', { name: 'Retry the delivery of answer s1' }))
		await waitFor(() =>
			expect(
				server.calls.some(
					(call) => call.method === 'POST' && call.path === '/dashboard/forms/f1/webhooks/w1/deliveries/d1/retry',
				),
			).toBe(true),
		)
	})

	test('a member is told that owners and admins manage webhooks; no webhook, secret or URL is asked for', async () => {
		const api = mockApi(() => undefined, { role: 'member' })
		renderWebhooks()
		expect(
			await screen.findByText(/Only an owner or admin can see and add webhooks: each holds a signing secret./),
		).toBeInTheDocument()
		expect(screen.queryByRole('textbox', { name: 'Webhook URL' })).not.toBeInTheDocument()
		expect(screen.queryByRole('button', { name: 'Add webhook' })).not.toBeInTheDocument()
		expect(api.calls.some((call) => call.path.includes('/webhooks'))).toBe(false)
	})
})
