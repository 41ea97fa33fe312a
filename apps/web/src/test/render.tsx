import { type RenderOptions, render } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReactElement } from 'react'

type UserEventOptions = Parameters<typeof userEvent.setup>[0]

/** Renders `ui` with a user-event session set up first, as Testing Library recommends. */
export function renderWithUser(ui: ReactElement, options: RenderOptions & { user?: UserEventOptions } = {}) {
	const { user: userOptions, ...renderOptions } = options
	const user = userEvent.setup(userOptions)
	return { user, ...render(ui, renderOptions) }
}
