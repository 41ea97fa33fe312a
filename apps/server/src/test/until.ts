/**
 * Polls `read` until `isDone` holds, for what a server does in its own time (syncs, deliveries,
 * webhooks); fails naming `what` and the last value read.
 */
export async function until<T>(
	what: string,
	read: () => Promise<T> | T,
	isDone: (value: T) => boolean,
	timeoutMs = 90_000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs
	let last = await read()
	while (!isDone(last)) {
		if (Date.now() > deadline) {
			throw new Error(`timed out waiting for ${what}: ${JSON.stringify(last)?.slice(0, 800)}`)
		}
		await new Promise((resolve) => setTimeout(resolve, 100))
		last = await read()
	}
	return last
}
