import { createFakeNotion } from './fake-notion.ts'

// biome-ignore lint/style/noProcessEnv: the demo picks its port from the environment like the app does.
const port = Number(process.env.FAKE_NOTION_PORT ?? 4010)
const fake = await createFakeNotion({ port, seed: true })

console.log(`Fake Notion API listening on ${fake.url}

Internal integration token (paste as the Notion token):
  ${fake.token}

OAuth (public connection) settings for the server:
  NOTION_API_BASE_URL=${fake.url}
  NOTION_CLIENT_ID=${fake.oauthClient.clientId}
  NOTION_CLIENT_SECRET=${fake.oauthClient.clientSecret}
  Authorize URL: ${fake.url}/v1/oauth/authorize (approves at once)

Demo workspace "${fake.workspace.name}": Clients, Projects, Time entries, Invoices.
Controls: POST ${fake.url}/__control/<name> with a JSON array of arguments; GET ${fake.url}/__control/requests`)

async function stop(): Promise<void> {
	await fake.close()
	process.exit(0)
}

process.on('SIGINT', () => void stop())
process.on('SIGTERM', () => void stop())
