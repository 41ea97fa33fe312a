import { afterAll, beforeAll } from 'vitest'
import { type ContractSetup, describeConnectorContract } from '#src/test/connector-contract.ts'
import { createFakeNotion, type FakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import { createNotionClient, createNotionConnector } from './notion.connector.ts'
import { createNotionQueue } from './notion.queue.ts'

// The same contract as the local connector, through the official SDK against the fake Notion.

let fake: FakeNotion
let setupOnce: Promise<ContractSetup> | undefined

beforeAll(async () => {
	fake = await createFakeNotion()
})
afterAll(async () => {
	await fake?.close()
})

async function build(): Promise<ContractSetup> {
	const demo = fake.seed()
	const dataSource = fake.addDataSource({
		title: 'Deals',
		properties: {
			Name: { title: {} },
			Notes: { rich_text: {} },
			Value: { number: { format: 'dollar' } },
			Kind: { select: { options: [{ name: 'New' }, { name: 'Renewal' }] } },
			Tags: { multi_select: { options: [{ name: 'hot' }, { name: 'cold' }] } },
			Stage: { status: { options: [{ name: 'Open' }, { name: 'Won' }] } },
			Close: { date: {} },
			Signed: { checkbox: {} },
			Link: { url: {} },
			Email: { email: {} },
			Phone: { phone_number: {} },
			Owner: { people: {} },
			Files: { files: {} },
			Company: { relation: { data_source_id: demo.dataSources.clients, type: 'single_property', single_property: {} } },
		},
	})
	const connector = createNotionConnector({
		client: createNotionClient({ token: fake.token, baseUrl: fake.url }),
		queue: createNotionQueue({ requestsPerSecond: 50 }),
		workspaceKey: fake.workspace.id,
		readBlob: async () => null,
	})
	const database = await connector.getDatabase(String(dataSource.id))
	const [first, second] = demo.pages.clients
	return {
		connector,
		database,
		relationTargets: [first ?? '', second ?? ''],
		personId: demo.users.ada,
		// Notion stamps edits by the minute; the fake's clock moves on instead of the test waiting.
		tick: async () => fake.advanceClock(60_000),
	}
}

describeConnectorContract('notion', () => {
	setupOnce ??= build()
	return setupOnce
})
